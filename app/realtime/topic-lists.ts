// The sidebar's topic lists follow the member's `user` channel: being added to or tagged in a topic, or a topic of
// theirs renamed or re-shared, reads the lists again without a reload.
import { useQueryClient } from '@tanstack/react-query';
import { refreshTopicLists } from '../chat/api';
import { useRealtimeChannel } from './use-channel';

export function useLiveTopicLists(): void {
  const queryClient = useQueryClient();
  const refresh = () => refreshTopicLists(queryClient);
  useRealtimeChannel('user', refresh, refresh);
}
