// Loads what the topic policies (server/policies/topics.ts) decide on, and applies them: one topic of the viewer's
// org with the viewer's membership and bot-admin standing.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { topicMessages } from '../../common/api/topics';
import type { Viewer } from '../context';
import {
  botAdmins,
  bots,
  orgs,
  topicMembers,
  topics,
  type Org,
  type Topic,
  type TopicMember,
} from '../db/schema';
import type { DbOrTx } from '../db/store';
import { notFound, unauthorized } from '../errors';
import {
  canDeleteTopic,
  canEditTopic,
  requireTopicDelete,
  requireTopicEdit,
  requireTopicShare,
  requireTopicView,
  type TopicRelation,
} from '../policies/topics';

export type LoadedTopic = { topic: Topic; relation: TopicRelation; membership: TopicMember | null };

/** The org's settings that decide topic access and how it is shown. */
export type TopicOrg = Pick<Org, 'id' | 'publicTopicsEnabled' | 'flags' | 'chatRetentionDays'>;

export async function loadTopicOrg(db: DbOrTx, orgId: string): Promise<TopicOrg> {
  const [org] = await db
    .select({
      id: orgs.id,
      publicTopicsEnabled: orgs.publicTopicsEnabled,
      flags: orgs.flags,
      chatRetentionDays: orgs.chatRetentionDays,
    })
    .from(orgs)
    .where(eq(orgs.id, orgId))
    .limit(1);
  if (!org) throw unauthorized();
  return org;
}

/** Whether the viewer administers the managed (and not deleted) bot the topic is addressed to. */
export async function isManagedBotAdmin(db: DbOrTx, viewer: Viewer, botId: string | null): Promise<boolean> {
  if (!botId) return false;
  const [row] = await db
    .select({ botId: bots.id })
    .from(bots)
    .innerJoin(botAdmins, eq(botAdmins.botId, bots.id))
    .where(
      and(
        eq(bots.orgId, viewer.orgId),
        eq(bots.id, botId),
        eq(bots.isManaged, true),
        isNull(bots.deletedAt),
        eq(sql`lower(${botAdmins.email})`, viewer.email.toLowerCase()),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** A topic of the viewer's org and the viewer's relation to it, or null when there is none by that id. */
export async function loadTopic(db: DbOrTx, viewer: Viewer, topicId: string): Promise<LoadedTopic | null> {
  const [topic] = await db
    .select()
    .from(topics)
    .where(and(eq(topics.orgId, viewer.orgId), eq(topics.id, topicId)))
    .limit(1);
  if (!topic) return null;
  const [[membership], botAdmin] = await Promise.all([
    db
      .select()
      .from(topicMembers)
      .where(
        and(
          eq(topicMembers.orgId, viewer.orgId),
          eq(topicMembers.topicId, topic.id),
          eq(topicMembers.userId, viewer.userId),
        ),
      )
      .limit(1),
    isManagedBotAdmin(db, viewer, topic.botId),
  ]);
  return {
    topic,
    membership: membership ?? null,
    relation: {
      userId: viewer.userId,
      orgId: viewer.orgId,
      isMember: Boolean(membership),
      isManagedBotAdmin: botAdmin,
      isOrgAdmin: viewer.admin,
    },
  };
}

async function loadOrNotFound(db: DbOrTx, viewer: Viewer, topicId: string): Promise<LoadedTopic> {
  const loaded = await loadTopic(db, viewer, topicId);
  if (!loaded) throw notFound(topicMessages.NOT_FOUND);
  return loaded;
}

/** 404 unless the viewer may see the topic. */
export async function topicToView(db: DbOrTx, viewer: Viewer, topicId: string): Promise<LoadedTopic> {
  const loaded = await loadOrNotFound(db, viewer, topicId);
  requireTopicView(loaded.topic, loaded.relation);
  return loaded;
}

/** 404 unless the viewer may see it, 403 unless they may change it. */
export async function topicToEdit(db: DbOrTx, viewer: Viewer, topicId: string): Promise<LoadedTopic> {
  const loaded = await loadOrNotFound(db, viewer, topicId);
  requireTopicEdit(loaded.topic, loaded.relation);
  return loaded;
}

/** 404 unless the viewer may see it, 403 unless they may change who can open it. */
export async function topicToShare(db: DbOrTx, viewer: Viewer, topicId: string): Promise<LoadedTopic> {
  const loaded = await loadOrNotFound(db, viewer, topicId);
  requireTopicShare(loaded.topic, loaded.relation);
  return loaded;
}

/** 404 unless the viewer may see it, 403 unless they own it. */
export async function topicToDelete(db: DbOrTx, viewer: Viewer, topicId: string): Promise<LoadedTopic> {
  const loaded = await loadOrNotFound(db, viewer, topicId);
  requireTopicDelete(loaded.topic, loaded.relation);
  return loaded;
}

export function permissionsOf(loaded: LoadedTopic): { edit: boolean; delete: boolean } {
  return {
    edit: canEditTopic(loaded.topic, loaded.relation),
    delete: canDeleteTopic(loaded.topic, loaded.relation),
  };
}
