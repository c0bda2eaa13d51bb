import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function MySettingsScreen() {
  return <PlaceholderScreen title="Personal settings" />;
}
