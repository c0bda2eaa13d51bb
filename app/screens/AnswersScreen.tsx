import { Text } from '@mantine/core';
import { useParams } from 'react-router';
import { PlaceholderScreen } from '../components/PlaceholderScreen';

export function AnswersScreen() {
  const { id } = useParams();
  return <PlaceholderScreen title="Answers">{id && <Text c="dimmed">{id}</Text>}</PlaceholderScreen>;
}
