import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function BillingScreen() {
  return <PlaceholderScreen title="Billing" />;
}
