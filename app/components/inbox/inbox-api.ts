// The inbox's calls (common/api/notifications.ts) through the one API client, and how a read spreads: every query
// of the inbox refreshes, and the other tabs hear of it (spec §4.7, the cross-tab channel).
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import {
  markNotificationsResponseSchema,
  notificationPreferencesSchema,
  notificationsResponseSchema,
  type NotificationFilter,
  type NotificationPreferences,
} from '../../../common/api/notifications';
import { apiRequest } from '../../api/client';
import { useRealtimeChannel } from '../../realtime/use-channel';
import { announceRead } from './cross-tab';

export const inboxKeys = {
  all: ['inbox'] as const,
  unread: ['inbox', 'unread'] as const,
  list: (filter: NotificationFilter) => ['inbox', 'list', filter] as const,
  preferences: ['inbox', 'preferences'] as const,
};

/**
 * The realtime hub pushes each new notification; polling this often (and when the tab regains focus) is the
 * fallback for a socket that is down or blocked by a proxy.
 */
export const INBOX_POLL_MS = 15_000;
/** Unread items the badge, the tab title and desktop notifications work from. */
const UNREAD_WINDOW = 50;
const PAGE_SIZE = 20;

/** The unread items and the unread count, kept fresh while the app is open. */
export function useUnreadNotifications(enabled: boolean) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
  useRealtimeChannel(enabled ? 'notifications' : null, refresh, refresh);
  return useQuery({
    queryKey: inboxKeys.unread,
    queryFn: ({ signal }) =>
      apiRequest('notifications', {
        schema: notificationsResponseSchema,
        query: { filter: 'unread', page_size: UNREAD_WINDOW },
        signal,
      }),
    enabled,
    refetchInterval: INBOX_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/** One filter of the panel, a page at a time. */
export function useNotificationList(filter: NotificationFilter) {
  return useInfiniteQuery({
    queryKey: inboxKeys.list(filter),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      apiRequest('notifications', {
        schema: notificationsResponseSchema,
        query: { filter, page: pageParam, page_size: PAGE_SIZE },
        signal,
      }),
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}

/** After a read here: this tab's inbox refreshes and the other tabs are told. */
export async function readHappened(queryClient: QueryClient): Promise<void> {
  announceRead();
  await queryClient.invalidateQueries({ queryKey: inboxKeys.all });
}

const mark = (path: string) => apiRequest(path, { method: 'PATCH', schema: markNotificationsResponseSchema });

export const markNotificationRead = (id: string) => mark(`notifications/${encodeURIComponent(id)}/read`);
export const markAllNotificationsRead = () => mark('notifications/mark_all_as_read');
export const markTopicNotificationsRead = (topicId: string) =>
  mark(`notifications/topic/${encodeURIComponent(topicId)}/read`);

export function useNotificationPreferences() {
  return useQuery({
    queryKey: inboxKeys.preferences,
    queryFn: ({ signal }) =>
      apiRequest('notifications/preferences', { schema: notificationPreferencesSchema, signal }),
  });
}

export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preferences: NotificationPreferences) =>
      apiRequest('notifications/preferences', {
        method: 'PUT',
        body: preferences,
        schema: notificationPreferencesSchema,
      }),
    onSuccess: (saved) => queryClient.setQueryData(inboxKeys.preferences, saved),
  });
}
