import { Text } from '@mantine/core';
import { useParams } from 'react-router';
import { PlaceholderScreen } from '../../components/PlaceholderScreen';

export function MembersScreen() {
  const { path } = useParams();
  return <PlaceholderScreen title="Members">{path && <Text c="dimmed">{path}</Text>}</PlaceholderScreen>;
}
