import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function SidePanelScreen() {
  return <PlaceholderScreen title="Side panel" />;
}
