// A member's inbox (spec shell-and-account §2.9, §4.7): their own notifications only, newest first, and the calls
// that read them. Every query is filtered by the viewer's org and user, so nobody reads or marks another's.
import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  notificationMessages,
  type MarkNotificationsResponse,
  type NotificationFilter,
  type NotificationsResponse,
} from '../../common/api/notifications';
import { parseFlags } from '../../common/flags';
import type { Viewer } from '../context';
import { notifications, type Notification } from '../db/schema';
import type { DbOrTx } from '../db/store';
import { notFound } from '../errors';
import { canViewTopic } from '../policies/topics';
import { presentNotification } from '../presenters/notification';
import { loadTopic } from '../topics/access';

/** The inbox needs both flags (spec §2.8): its routes declare them, and nothing is sent without them. */
export function inboxEnabled(flags: unknown): boolean {
  const parsed = parseFlags(flags);
  return parsed.notifications && parsed.multiplayerEnabled;
}

const mine = (viewer: Pick<Viewer, 'orgId' | 'userId'>) =>
  and(eq(notifications.orgId, viewer.orgId), eq(notifications.userId, viewer.userId));

export async function unreadCount(db: DbOrTx, viewer: Pick<Viewer, 'orgId' | 'userId'>): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(mine(viewer), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

const FILTERS: Record<NotificationFilter, ReturnType<typeof isNull> | undefined> = {
  all: undefined,
  unread: isNull(notifications.readAt),
  read: isNotNull(notifications.readAt),
};

export async function listNotifications(
  db: DbOrTx,
  viewer: Viewer,
  query: { filter: NotificationFilter; page: number; page_size: number },
): Promise<NotificationsResponse> {
  const rows = await db
    .select()
    .from(notifications)
    .where(and(mine(viewer), FILTERS[query.filter]))
    .orderBy(desc(notifications.insertedAt), desc(notifications.id))
    // one more than asked, to know whether another page follows
    .limit(query.page_size + 1)
    .offset((query.page - 1) * query.page_size);
  const page = rows.slice(0, query.page_size);
  const gone = await aboutTopicsNoLongerViewable(db, viewer, page);
  if (gone.size > 0) {
    await db.delete(notifications).where(and(mine(viewer), inArray(notifications.id, [...gone])));
  }
  return {
    items: page.filter((row) => !gone.has(row.id)).map(presentNotification),
    page: query.page,
    has_more: rows.length > query.page_size,
    meta: { unread_count: await unreadCount(db, viewer) },
  };
}

/**
 * Notifications about topics the viewer may no longer open (deleted, or their access withdrawn since): they go,
 * unseen, so the inbox never shows a title or an excerpt of a topic its reader cannot read.
 */
async function aboutTopicsNoLongerViewable(
  db: DbOrTx,
  viewer: Viewer,
  rows: readonly Notification[],
): Promise<Set<string>> {
  // topic_id is always the id of a topics row: the notifier wrote it
  const topicIds = [...new Set(rows.map((row) => String(row.data.topic_id)))];
  const viewable = new Set<string>();
  for (const topicId of topicIds) {
    const loaded = await loadTopic(db, viewer, topicId);
    if (loaded && canViewTopic(loaded.topic, loaded.relation)) viewable.add(topicId);
  }
  return new Set(rows.filter((row) => !viewable.has(String(row.data.topic_id))).map((row) => row.id));
}

/** Marks one of the viewer's notifications read; another member's is a 404, as if it did not exist. */
export async function markNotificationRead(
  db: DbOrTx,
  viewer: Viewer,
  id: string,
  now = new Date(),
): Promise<MarkNotificationsResponse> {
  const [row] = await db
    .update(notifications)
    // reading it again keeps the first read time
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(mine(viewer), eq(notifications.id, id)))
    .returning({ id: notifications.id });
  if (!row) throw notFound(notificationMessages.NOT_FOUND);
  return { meta: { unread_count: await unreadCount(db, viewer) } };
}

export async function markAllNotificationsRead(
  db: DbOrTx,
  viewer: Viewer,
  now = new Date(),
): Promise<MarkNotificationsResponse> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(mine(viewer), isNull(notifications.readAt)));
  return { meta: { unread_count: 0 } };
}

/** Viewing a topic reads its notifications (spec §4.7). A topic with none, or unknown, changes nothing. */
export async function markTopicNotificationsRead(
  db: DbOrTx,
  viewer: Viewer,
  topicId: string,
  now = new Date(),
): Promise<MarkNotificationsResponse> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(mine(viewer), isNull(notifications.readAt), sql`${notifications.data}->>'topic_id' = ${topicId}`),
    );
  return { meta: { unread_count: await unreadCount(db, viewer) } };
}
