// A member's notification preferences (spec shell-and-account §3): 'True'/'False' per channel and kind, plus
// desktop_push_disabled, stored as the flags the member set; the rest read as the defaults below.
import { and, eq } from 'drizzle-orm';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
  type PreferenceFlag,
} from '../../common/api/notifications';
import { notificationPreferences, type NotificationPrefs } from '../db/schema';
import type { DbOrTx } from '../db/store';

/**
 * The spec's default for a flag is 'False', which is what the original client assumed for a flag its feed did not
 * send. Scout sends every flag, so the default that matters is the server's, and there in-app is on: the org has
 * already chosen the inbox by turning on its notifications and multiplayer flags, and an inbox that stays empty
 * until each member finds a settings page does not work out of the box. Email and desktop stay 'False' as the spec
 * says: both reach outside the app, so a member opts in to them.
 */
export const DEFAULT_CHANNEL_FLAG: Record<NotificationChannel, PreferenceFlag> = {
  in_app: 'True',
  email: 'False',
  desktop: 'False',
};

const keyOf = (channel: NotificationChannel, kind: NotificationKind) => `${channel}.${kind}`;

/** The stored row as the wire shows it: every flag present. */
export function preferencesOf(
  row: { prefs: NotificationPrefs; desktopPushDisabled: boolean } | undefined,
): NotificationPreferences {
  const flags = (channel: NotificationChannel) =>
    Object.fromEntries(
      NOTIFICATION_KINDS.map((kind) => [
        kind,
        row?.prefs[keyOf(channel, kind)] ?? DEFAULT_CHANNEL_FLAG[channel],
      ]),
    ) as NotificationPreferences['in_app'];
  return {
    in_app: flags('in_app'),
    email: flags('email'),
    desktop: flags('desktop'),
    desktop_push_disabled: row?.desktopPushDisabled ? 'True' : 'False',
  };
}

export async function loadPreferences(
  db: DbOrTx,
  orgId: string,
  userId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select({
      prefs: notificationPreferences.prefs,
      desktopPushDisabled: notificationPreferences.desktopPushDisabled,
    })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.orgId, orgId), eq(notificationPreferences.userId, userId)))
    .limit(1);
  return preferencesOf(row);
}

export async function savePreferences(
  db: DbOrTx,
  orgId: string,
  userId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  const prefs: NotificationPrefs = {};
  for (const channel of NOTIFICATION_CHANNELS) {
    for (const kind of NOTIFICATION_KINDS) prefs[keyOf(channel, kind)] = preferences[channel][kind];
  }
  const desktopPushDisabled = preferences.desktop_push_disabled === 'True';
  await db
    .insert(notificationPreferences)
    .values({ orgId, userId, prefs, desktopPushDisabled })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { prefs, desktopPushDisabled } });
  return loadPreferences(db, orgId, userId);
}

/** Whether the member wants this kind on this channel. */
export function wants(
  preferences: NotificationPreferences,
  channel: NotificationChannel,
  kind: NotificationKind,
): boolean {
  return preferences[channel][kind] === 'True';
}
