import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function WorkflowsScreen() {
  return <PlaceholderScreen title="Workflows" />;
}
