import { shell } from '../../common/strings';
import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function HomeScreen() {
  return <PlaceholderScreen title={shell.HOME_HEADING} />;
}
