// Topic members (spec shell-and-account §3 Topic member, §4.6; asking-questions §6): the owner (CREATOR) and the
// editors who were added or tagged. Adding anyone makes the topic shared (multiplayer).
import { and, asc, eq, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { topicMessages, type TopicMember, type TopicMembersResponse } from '../../common/api/topics';
import { parseFlags } from '../../common/flags';
import type { Viewer } from '../context';
import { botAdmins, bots, topicMembers, topics, users, type Topic, type User } from '../db/schema';
import type { DbOrTx } from '../db/store';
import type { Notifier } from '../notifications/notifier';
import { badRequest, forbidden } from '../errors';
import { presentTopicMember } from '../presenters/topic';
import { loadTopicOrg, topicToEdit, topicToView } from './access';

export const SHARED_TOPICS_OFF = 'Shared topics are not enabled for this workspace.';

/**
 * Adding or tagging colleagues shares a topic, which the org's multiplayerEnabled flag (default off) gates. The app
 * hides the controls without it; the server refuses too, so an old tab or a script cannot share anyway.
 */
export async function requireSharedTopics(db: DbOrTx, orgId: string): Promise<void> {
  const org = await loadTopicOrg(db, orgId);
  if (!parseFlags(org.flags).multiplayerEnabled) throw forbidden(SHARED_TOPICS_OFF);
}

/** Members who may be added or tagged: anyone of the org who has not been blocked or deleted. */
const TAGGABLE = notInArray(users.status, ['BLOCKED', 'DELETED']);

/**
 * Active members of the org named by id or by email. Every name must resolve: an unknown, blocked or deleted person
 * is refused (400) with the address (or id) that did not.
 */
export async function resolveTaggedMembers(
  db: DbOrTx,
  orgId: string,
  people: readonly { id?: string | undefined; email?: string | undefined }[],
): Promise<User[]> {
  if (people.length === 0) return [];
  const wantedIds = people.flatMap((person) => (person.id && isUuid(person.id) ? [person.id] : []));
  const wantedEmails = people.flatMap((person) => (person.email ? [person.email.trim().toLowerCase()] : []));
  const found = await db
    .select()
    .from(users)
    .where(
      and(
        eq(users.orgId, orgId),
        TAGGABLE,
        or(
          wantedIds.length > 0 ? inArray(users.id, wantedIds) : undefined,
          wantedEmails.length > 0 ? inArray(users.email, wantedEmails) : undefined,
        ) ?? sql`false`,
      ),
    );
  const byId = new Map(found.map((user) => [user.id, user]));
  const byEmail = new Map(found.map((user) => [user.email, user]));
  const resolved = new Map<string, User>();
  for (const person of people) {
    const user =
      (person.id ? byId.get(person.id) : undefined) ??
      (person.email ? byEmail.get(person.email.trim().toLowerCase()) : undefined);
    if (!user) throw badRequest(topicMessages.notAMember(person.email || person.id || ''));
    resolved.set(user.id, user);
  }
  return [...resolved.values()];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string) => UUID.test(value);

/**
 * Makes the people editors of the topic (the owner stays its creator) and marks the topic shared when anyone but
 * the owner joined. Answers the topic as it is now and who joined it just now (for their notifications).
 */
export async function addEditors(
  db: DbOrTx,
  topic: Topic,
  people: readonly User[],
): Promise<{ topic: Topic; joinedIds: string[] }> {
  const editors = people.filter((person) => person.id !== topic.authorId);
  if (editors.length === 0) return { topic, joinedIds: [] };
  const joined = await db
    .insert(topicMembers)
    .values(
      editors.map((person) => ({
        orgId: topic.orgId,
        topicId: topic.id,
        userId: person.id,
        role: 'EDITOR' as const,
      })),
    )
    .onConflictDoNothing()
    .returning({ userId: topicMembers.userId });
  const joinedIds = joined.map((row) => row.userId);
  if (topic.isMultiplayer) return { topic, joinedIds };
  const [shared] = await db
    .update(topics)
    .set({ isMultiplayer: true })
    .where(and(eq(topics.orgId, topic.orgId), eq(topics.id, topic.id)))
    .returning();
  return { topic: shared ?? { ...topic, isMultiplayer: true }, joinedIds };
}

async function managedBotAdmins(
  db: DbOrTx,
  topic: Topic,
): Promise<TopicMembersResponse['managed_bot_admins']> {
  if (!topic.botId) return [];
  const [bot] = await db
    .select()
    .from(bots)
    .where(
      and(
        eq(bots.orgId, topic.orgId),
        eq(bots.id, topic.botId),
        eq(bots.isManaged, true),
        isNull(bots.deletedAt),
      ),
    )
    .limit(1);
  if (!bot) return [];
  const admins = await db
    .select({ email: botAdmins.email, user: users })
    .from(botAdmins)
    .leftJoin(users, and(eq(users.orgId, botAdmins.orgId), eq(users.email, sql`lower(${botAdmins.email})`)))
    .where(and(eq(botAdmins.orgId, topic.orgId), eq(botAdmins.botId, bot.id)))
    .orderBy(asc(botAdmins.email));
  return [
    {
      bot_id: bot.id,
      bot_name: bot.botName,
      bot_icon: bot.icon,
      members: admins.map((admin) =>
        presentTopicMember(admin.user ?? { email: admin.email }, 'EDITOR', topic.id),
      ),
    },
  ];
}

async function membersOf(db: DbOrTx, topic: Topic): Promise<TopicMembersResponse> {
  const [author, editors, botAdminGroups] = await Promise.all([
    topic.authorId
      ? db
          .select()
          .from(users)
          .where(and(eq(users.orgId, topic.orgId), eq(users.id, topic.authorId)))
          .limit(1)
      : [],
    // members count only while the topic is shared; the owner's own row is a read marker
    topic.isMultiplayer
      ? db
          .select({ user: users })
          .from(topicMembers)
          .innerJoin(users, eq(users.id, topicMembers.userId))
          .where(and(eq(topicMembers.orgId, topic.orgId), eq(topicMembers.topicId, topic.id)))
          .orderBy(asc(topicMembers.createdAt), asc(users.email))
      : [],
    managedBotAdmins(db, topic),
  ]);
  const members: TopicMember[] = author.map((user) => presentTopicMember(user, 'CREATOR', topic.id));
  for (const { user } of editors) {
    if (user.id !== topic.authorId) members.push(presentTopicMember(user, 'EDITOR', topic.id));
  }
  return { managed_bot_admins: botAdminGroups, members };
}

export async function listTopicMembers(
  db: DbOrTx,
  viewer: Viewer,
  topicId: string,
): Promise<TopicMembersResponse> {
  const { topic } = await topicToView(db, viewer, topicId);
  return membersOf(db, topic);
}

/**
 * `POST /topics/topic/member`: an org member by email becomes an editor, and hears of it (notify-user-added-to-topic)
 * unless they were one already. Answers the members as they are now.
 */
export async function addTopicMember(
  db: DbOrTx,
  notifier: Notifier,
  viewer: Viewer,
  topicId: string,
  email: string,
): Promise<TopicMembersResponse> {
  const { topic } = await topicToEdit(db, viewer, topicId);
  await requireSharedTopics(db, viewer.orgId);
  const people = await resolveTaggedMembers(db, viewer.orgId, [{ email }]);
  const added = await addEditors(db, topic, people);
  await notifier.notify({
    type: 'notify-user-added-to-topic',
    orgId: viewer.orgId,
    topicId: topic.id,
    actorId: viewer.userId,
    recipientIds: added.joinedIds,
  });
  return membersOf(db, added.topic);
}
