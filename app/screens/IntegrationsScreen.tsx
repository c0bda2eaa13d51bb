import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function IntegrationsScreen() {
  return <PlaceholderScreen title="Apps store" />;
}
