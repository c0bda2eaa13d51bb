import { Button, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { PlaceholderScreen } from '../components/PlaceholderScreen';

/** The read-only page a signed-out visitor sees at /topic/{id}/{msgId?} (spec §2.6). */
export function PublicTopicScreen() {
  const { id } = useParams();
  return (
    <PlaceholderScreen title="Shared topic">
      <Text c="dimmed">{id}</Text>
      <Button component={Link} to="/signup" w="fit-content">
        Sign Up
      </Button>
    </PlaceholderScreen>
  );
}
