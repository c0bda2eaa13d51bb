import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function BrowserExtensionScreen() {
  return <PlaceholderScreen title="Browser Extension" />;
}
