import { Text } from '@mantine/core';
import { useParams } from 'react-router';
import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function TopicScreen() {
  const { id, msgId } = useParams();
  return (
    <PlaceholderScreen title="Topic">
      <Text c="dimmed">
        {id}
        {msgId && ` / ${msgId}`}
      </Text>
    </PlaceholderScreen>
  );
}
