import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function AppearanceScreen() {
  return <PlaceholderScreen title="Appearance" />;
}
