import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function NotificationPreferencesScreen() {
  return <PlaceholderScreen title="Notification preferences" />;
}
