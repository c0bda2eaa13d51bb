import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function DirectorySyncScreen() {
  return <PlaceholderScreen title="Directory Sync" />;
}
