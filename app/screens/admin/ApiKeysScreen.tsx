import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function ApiKeysScreen() {
  return <PlaceholderScreen title="API Keys" />;
}
