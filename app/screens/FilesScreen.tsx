import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function FilesScreen() {
  return <PlaceholderScreen title="Files" />;
}
