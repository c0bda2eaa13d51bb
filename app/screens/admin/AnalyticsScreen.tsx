import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function AnalyticsScreen() {
  return <PlaceholderScreen title="Analytics" />;
}
