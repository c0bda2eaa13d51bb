import {
  notificationActorSchema,
  notificationDataSchema,
  type NotificationItem,
} from '../../common/api/notifications';
import type { Notification } from '../db/schema';

/** One inbox item as its recipient sees it (spec shell-and-account §3 Notification item). */
export function presentNotification(row: Notification): NotificationItem {
  return {
    id: row.id,
    read: row.readAt !== null,
    read_at: row.readAt?.toISOString() ?? null,
    inserted_at: row.insertedAt.toISOString(),
    actors: row.actors.flatMap((actor) => {
      const parsed = notificationActorSchema.safeParse(actor);
      return parsed.success ? [parsed.data] : [];
    }),
    // the stored data also holds `desktop`, which the item carries on its own
    data: notificationDataSchema.parse(row.data),
    markdown: row.markdown ?? '',
    desktop: row.data.desktop === true,
  };
}
