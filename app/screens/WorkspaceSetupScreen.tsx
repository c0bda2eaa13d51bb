import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function WorkspaceSetupScreen() {
  return <PlaceholderScreen title="Set up your workspace" />;
}
