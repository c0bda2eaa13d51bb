import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function AiControlsScreen() {
  return <PlaceholderScreen title="AI Controls" />;
}
