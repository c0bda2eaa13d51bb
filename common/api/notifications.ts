// The inbox and its preferences (spec shell-and-account §2.8, §2.9, §3 Notification item and preferences, §4.7).
// The original read a third-party feed; Scout serves its own, so the calls below are ours, shaped after the spec's
// item and its meta.unread_count.
import { z } from 'zod';

/** The five kinds of spec §3, as a notification's data.type. */
export const NOTIFICATION_TYPES = [
  'notify-tagged-users',
  'notify-bot-admins',
  'notify-new-msgs-in-shared-topics',
  'notify-user-added-to-topic',
  'notify-research',
] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** The kinds as the preferences name them, in the order the preferences screen lists them. */
export const NOTIFICATION_KINDS = [
  'tagged_users',
  'bot_admins',
  'new_msgs',
  'user_added_to_topic',
  'research',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

export const KIND_OF_TYPE: Record<NotificationType, NotificationKind> = {
  'notify-tagged-users': 'tagged_users',
  'notify-bot-admins': 'bot_admins',
  'notify-new-msgs-in-shared-topics': 'new_msgs',
  'notify-user-added-to-topic': 'user_added_to_topic',
  'notify-research': 'research',
};

export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'desktop'] as const;
export const notificationChannelSchema = z.enum(NOTIFICATION_CHANNELS);
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

/** Preference flags travel as the strings 'True' and 'False' (spec §3). */
export const preferenceFlagSchema = z.enum(['True', 'False']);
export type PreferenceFlag = z.infer<typeof preferenceFlagSchema>;

const kindFlagsSchema = z
  .object({
    tagged_users: preferenceFlagSchema,
    bot_admins: preferenceFlagSchema,
    new_msgs: preferenceFlagSchema,
    user_added_to_topic: preferenceFlagSchema,
    research: preferenceFlagSchema,
  })
  .strict();
export type KindFlags = z.infer<typeof kindFlagsSchema>;

/** Every flag, always sent in full: the app never falls back to a default of its own. */
export const notificationPreferencesSchema = z
  .object({
    in_app: kindFlagsSchema,
    email: kindFlagsSchema,
    desktop: kindFlagsSchema,
    desktop_push_disabled: preferenceFlagSchema,
  })
  .strict();
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** `PUT /notifications/preferences`: the whole matrix, as the screen shows it. */
export const updateNotificationPreferencesRequestSchema = notificationPreferencesSchema;

export const notificationActorSchema = z.object({ name: z.string(), avatar: z.string().nullable() });

export const notificationDataSchema = z.object({
  type: notificationTypeSchema,
  topic_id: z.string(),
  topic_title: z.string(),
  message_id: z.string().nullable(),
  bot_id: z.string().nullable(),
  managed_bot_details: z.object({ icon: z.string().nullable(), bot_name: z.string() }).nullable(),
  /** The start of the message that caused it (tagged, new message), for the item's second line. */
  message_slice: z.string().nullable(),
  /** notify-research only: whether the research finished. */
  success: z.boolean().nullable(),
});
export type NotificationData = z.infer<typeof notificationDataSchema>;

export const notificationItemSchema = z.object({
  id: z.string(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  inserted_at: z.string(),
  actors: z.array(notificationActorSchema),
  data: notificationDataSchema,
  /** One line of markdown saying what happened (names and titles escaped). */
  markdown: z.string(),
  /** The recipient wanted a desktop notification for it when it was sent (desktop on, pushes not disabled). */
  desktop: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationItemSchema>;

export const NOTIFICATION_FILTERS = ['all', 'unread', 'read'] as const;
export const notificationFilterSchema = z.enum(NOTIFICATION_FILTERS);
export type NotificationFilter = z.infer<typeof notificationFilterSchema>;

export const NOTIFICATIONS_PAGE_SIZE_DEFAULT = 20;
export const NOTIFICATIONS_PAGE_SIZE_MAX = 50;

/** `GET /notifications`: newest first; page is 1-based. */
export const notificationsQuerySchema = z.object({
  filter: notificationFilterSchema.default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(NOTIFICATIONS_PAGE_SIZE_MAX)
    .default(NOTIFICATIONS_PAGE_SIZE_DEFAULT),
});
export type NotificationsQuery = z.input<typeof notificationsQuerySchema>;

export const notificationsMetaSchema = z.object({ unread_count: z.number().int().nonnegative() });
export type NotificationsMeta = z.infer<typeof notificationsMetaSchema>;

export const notificationsResponseSchema = z.object({
  items: z.array(notificationItemSchema),
  page: z.number().int(),
  has_more: z.boolean(),
  meta: notificationsMetaSchema,
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

export const notificationParamsSchema = z.object({ id: z.uuid() });
export const notificationTopicParamsSchema = z.object({ topicId: z.uuid() });

/** The mark-read calls answer the unread count as it is now. */
export const markNotificationsResponseSchema = z.object({ meta: notificationsMetaSchema });
export type MarkNotificationsResponse = z.infer<typeof markNotificationsResponseSchema>;

export const notificationMessages = {
  /** What the preferences screen says in a workspace without the inbox (its calls answer FEATURE_DISABLED). */
  NOTIFICATIONS_OFF: 'Notifications are not enabled for this workspace.',
  NOT_FOUND: 'Notification not found.',
} as const;
