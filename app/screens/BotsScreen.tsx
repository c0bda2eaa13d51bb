import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function BotsScreen() {
  return <PlaceholderScreen title="Bots" />;
}
