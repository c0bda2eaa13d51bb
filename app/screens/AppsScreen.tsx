import { Text } from '@mantine/core';
import { useParams } from 'react-router';
import { PlaceholderScreen } from '../components/PlaceholderScreen';

/** App management v2 (/apps/{type}/{app?}). */
export function AppsScreen() {
  const { type, app } = useParams();
  return (
    <PlaceholderScreen title="Apps">
      <Text c="dimmed">
        {type}
        {app && ` / ${app}`}
      </Text>
    </PlaceholderScreen>
  );
}
