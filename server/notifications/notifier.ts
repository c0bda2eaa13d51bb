// Sending notifications (spec shell-and-account §3, §4.7): one event (a member tagged, added to a topic, a new
// message in a shared topic, research finished) becomes, for each recipient who may view the topic, an inbox row
// when they want it in-app, an email when they want email, and a desktop mark when they want desktop pushes. The org
// must have the inbox on (notifications and multiplayerEnabled). Failures are logged, never thrown: a notification
// that could not be sent must not fail the message or the answer that caused it.
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { KIND_OF_TYPE, type NotificationData, type NotificationType } from '../../common/api/notifications';
import { inboxCopy, topics as topicStrings } from '../../common/strings';
import type { Viewer } from '../context';
import {
  botAdmins,
  bots,
  notifications,
  orgs,
  topicMembers,
  topics,
  users,
  type Bot,
  type Topic,
  type User,
} from '../db/schema';
import type { Db, DbOrTx } from '../db/store';
import type { Mailer } from '../email/mailer';
import { notificationMail } from '../email/templates';
import type { Logger } from '../logger';
import { canViewTopic } from '../policies/topics';
import { displayNameOf } from '../presenters/user';
import { loadTopic } from '../topics/access';
import { inboxEnabled, unreadCount } from './feed';
import { loadPreferences, wants } from './preferences';

export type NotifierDeps = {
  db: Db;
  mailer: Mailer;
  /** Where links in emails point (the app's public address). */
  publicUrl: string;
  log: Pick<Logger, 'warn' | 'error'>;
};

/** Told after a member's inbox gained a row, with their unread count. */
export type NotificationListener = (userId: string, orgId: string, unreadCount: number) => void;

export type NotificationEvent = {
  type: NotificationType;
  orgId: string;
  topicId: string;
  /** The message it is about (tagged in, new message, the research answer). */
  messageId?: string | null;
  /** The member who caused it; never notified of their own doing. Research has none. */
  actorId?: string | null;
  recipientIds: readonly string[];
  /** The bot the message was addressed to, when not the topic's own. */
  botId?: string | null;
  /** The message's text, for the item's excerpt. */
  messageText?: string | null;
  /** notify-research: whether it finished. */
  success?: boolean | null;
};

export type Notifier = {
  /**
   * Resolves once the rows are written and the emails handed to the mail server, so a caller that must not wait
   * (the chat) does not await it. Never rejects.
   */
  notify(event: NotificationEvent): Promise<void>;
  /**
   * Listens to new inbox rows (the realtime hub pushes the count to the member's tabs); answers the unsubscriber.
   * A listener that throws is logged and never fails the notification.
   */
  onCreated(listener: NotificationListener): () => void;
};

/**
 * Who hears of a new message in a shared topic: its owner and its members (the notifier leaves out the author and
 * anyone who may not view it). An unshared topic has nobody else to tell.
 */
export async function sharedTopicAudience(
  db: DbOrTx,
  topic: Pick<Topic, 'id' | 'orgId' | 'authorId' | 'isMultiplayer'>,
): Promise<string[]> {
  if (!topic.isMultiplayer) return [];
  const members = await db
    .select({ userId: topicMembers.userId })
    .from(topicMembers)
    .where(and(eq(topicMembers.orgId, topic.orgId), eq(topicMembers.topicId, topic.id)));
  return [
    ...new Set([...(topic.authorId ? [topic.authorId] : []), ...members.map((member) => member.userId)]),
  ];
}

/** Who hears of a question to a managed bot: its admins who are members of the bot's org. */
export async function managedBotAudience(db: DbOrTx, bot: Pick<Bot, 'id' | 'orgId'>): Promise<string[]> {
  const admins = await db
    .select({ userId: users.id })
    .from(botAdmins)
    .innerJoin(users, and(eq(users.orgId, botAdmins.orgId), eq(users.email, sql`lower(${botAdmins.email})`)))
    .where(and(eq(botAdmins.orgId, bot.orgId), eq(botAdmins.botId, bot.id)));
  return admins.map((admin) => admin.userId);
}

const EXCERPT_MAX_CHARS = 140;

function excerptOf(text: string | null | undefined): string | null {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!flat) return null;
  return flat.length > EXCERPT_MAX_CHARS ? `${flat.slice(0, EXCERPT_MAX_CHARS - 1).trimEnd()}…` : flat;
}

/** Names and titles are the members' own text: escaped so they read as written, never as markup. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (char) => `\\${char}`);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The item's sentence, as plain text (email, desktop) and as the markdown of the inbox. */
function sentences(
  event: NotificationEvent,
  names: { actor: string; topic: string; bot: string },
): { plain: string; markdown: string } {
  const say = (bold: (text: string) => string) => {
    const who = bold(names.actor);
    const topic = bold(names.topic);
    switch (event.type) {
      case 'notify-bot-admins':
        return inboxCopy.askedBot(who, bold(names.bot));
      case 'notify-tagged-users':
        return inboxCopy.taggedYou(who, topic);
      case 'notify-user-added-to-topic':
        return inboxCopy.addedYou(who, topic);
      case 'notify-new-msgs-in-shared-topics':
        return inboxCopy.wroteIn(who, topic);
      case 'notify-research':
        return event.success ? topicStrings.researchReady(topic) : topicStrings.researchFailed(topic);
    }
  };
  return { plain: say((text) => text), markdown: say((text) => `**${escapeMarkdown(text)}**`) };
}

/** A recipient as the topic policies see a member (not a request: there is no session). */
const asViewer = (user: User): Viewer => ({
  userId: user.id,
  orgId: user.orgId,
  email: user.email,
  admin: user.admin,
  sessionId: '',
});

export function createNotifier(deps: NotifierDeps): Notifier {
  const { db } = deps;
  const listeners = new Set<NotificationListener>();

  async function send(event: NotificationEvent): Promise<void> {
    const recipientIds = [...new Set(event.recipientIds)].filter((id) => id !== event.actorId);
    if (recipientIds.length === 0) return;
    const [org] = await db.select({ flags: orgs.flags }).from(orgs).where(eq(orgs.id, event.orgId)).limit(1);
    if (!org || !inboxEnabled(org.flags)) return;
    const [topic] = await db
      .select()
      .from(topics)
      .where(and(eq(topics.orgId, event.orgId), eq(topics.id, event.topicId)))
      .limit(1);
    if (!topic) return;
    const [actor] = event.actorId
      ? await db
          .select()
          .from(users)
          .where(and(eq(users.orgId, event.orgId), eq(users.id, event.actorId)))
          .limit(1)
      : [];
    const recipients = await db
      .select()
      .from(users)
      .where(
        and(
          eq(users.orgId, event.orgId),
          inArray(users.id, recipientIds),
          notInArray(users.status, ['BLOCKED', 'DELETED']),
        ),
      );
    const data = { ...(await dataOf(event, topic)) };
    const { plain, markdown } = sentences(event, {
      actor: oneLine(actor ? displayNameOf(actor) : inboxCopy.SOMEONE),
      topic: oneLine(topic.topicTitle) || inboxCopy.UNTITLED_TOPIC,
      bot: oneLine(data.managed_bot_details?.bot_name ?? ''),
    });
    const actors = actor ? [{ name: displayNameOf(actor), avatar: actor.photoUrl ?? null }] : [];
    const kind = KIND_OF_TYPE[event.type];

    const mails: Promise<void>[] = [];
    for (const recipient of recipients) {
      const loaded = await loadTopic(db, asViewer(recipient), topic.id);
      // Never a word about a topic the recipient may not open (it may have been made private meanwhile).
      if (!loaded || !canViewTopic(loaded.topic, loaded.relation)) continue;
      const preferences = await loadPreferences(db, event.orgId, recipient.id);
      if (wants(preferences, 'in_app', kind)) {
        const desktop = wants(preferences, 'desktop', kind) && preferences.desktop_push_disabled === 'False';
        await db.insert(notifications).values({
          orgId: event.orgId,
          userId: recipient.id,
          type: event.type,
          data: { ...data, desktop },
          actors,
          markdown,
        });
        if (listeners.size > 0) {
          const count = await unreadCount(db, asViewer(recipient));
          for (const listener of listeners) {
            try {
              listener(recipient.id, event.orgId, count);
            } catch (error) {
              deps.log.warn({ err: error }, 'a notification listener failed');
            }
          }
        }
      }
      if (wants(preferences, 'email', kind)) {
        const topicPath = data.message_id ? `/topic/${topic.id}/${data.message_id}` : `/topic/${topic.id}`;
        const mail = notificationMail({
          to: recipient.email,
          line: plain,
          topicUrl: new URL(topicPath, deps.publicUrl).href,
          settingsUrl: new URL('/notification-preferences', deps.publicUrl).href,
          excerpt: data.message_slice,
        });
        mails.push(
          deps.mailer.send(mail).catch((error: unknown) => {
            deps.log.warn(
              { err: error, userId: recipient.id, type: event.type },
              'notification email failed',
            );
          }),
        );
      }
    }
    await Promise.all(mails);
  }

  async function dataOf(event: NotificationEvent, topic: Topic): Promise<NotificationData> {
    const botId = event.botId ?? topic.botId;
    const [bot] = botId
      ? await db
          .select({ icon: bots.icon, botName: bots.botName })
          .from(bots)
          .where(and(eq(bots.orgId, topic.orgId), eq(bots.id, botId)))
          .limit(1)
      : [];
    return {
      type: event.type,
      topic_id: topic.id,
      topic_title: topic.topicTitle,
      message_id: event.messageId ?? null,
      bot_id: botId,
      managed_bot_details: bot ? { icon: bot.icon, bot_name: bot.botName } : null,
      message_slice: event.type === 'notify-research' ? null : excerptOf(event.messageText),
      success: event.type === 'notify-research' ? Boolean(event.success) : null,
    };
  }

  return {
    async notify(event) {
      try {
        await send(event);
      } catch (error) {
        deps.log.error(
          { err: error, type: event.type, topicId: event.topicId },
          'sending notifications failed',
        );
      }
    },
    onCreated(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
