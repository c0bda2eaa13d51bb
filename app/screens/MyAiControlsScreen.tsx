import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function MyAiControlsScreen() {
  return <PlaceholderScreen title="My AI Controls" />;
}
