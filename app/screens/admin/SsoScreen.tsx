import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function SsoScreen() {
  return <PlaceholderScreen title="Security" />;
}
