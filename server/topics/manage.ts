// Changing topics (spec asking-questions §4 topic title editing, §6; shell-and-account §4.6, §7.3): rename, access
// level, delete, and the viewer's read marker.
import { and, eq, sql } from 'drizzle-orm';
import type { TopicShareCheckResponse, TopicSummary, TopicUpdateRequest } from '../../common/api/topics';
import type { Viewer } from '../context';
import { topicMembers, topics, type Topic } from '../db/schema';
import type { DbOrTx } from '../db/store';
import { canShareTopic, isTopicOwner, requirePublicTopicsAllowed } from '../policies/topics';
import { answerSources, readableDocuments } from '../presenters/message';
import { presentTopicSummary } from '../presenters/topic';
import { ORG_PRINCIPAL, PUBLIC_PRINCIPAL, type Principal } from '../search';
import { loadTopicOrg, permissionsOf, topicToDelete, topicToEdit, topicToShare, topicToView } from './access';
import { topicMessageRows } from './messages';

function visibilityOf(change: TopicUpdateRequest): Partial<Pick<Topic, 'topicTitle' | 'visibility'>> | null {
  if ('is_public' in change) return { visibility: 'PUBLIC' };
  if ('visibility' in change) return { visibility: change.visibility === 'ORG' ? 'ORG' : 'INVITE_ONLY' };
  return null;
}

/**
 * `PATCH /topics/topic/{id}`. A blank title changes nothing and answers the title the topic keeps (the app then
 * shows it again); making a topic public needs the org's public topics and the publicTopics flag.
 */
export async function updateTopic(
  db: DbOrTx,
  viewer: Viewer,
  topicId: string,
  change: TopicUpdateRequest,
): Promise<TopicSummary> {
  let set = visibilityOf(change);
  const loaded = await (set ? topicToShare : topicToEdit)(db, viewer, topicId);
  const org = await loadTopicOrg(db, viewer.orgId);
  if ('is_public' in change) requirePublicTopicsAllowed(org);
  if ('topic_title' in change) {
    const title = change.topic_title.trim();
    set = title ? { topicTitle: title } : null;
  }
  let topic = loaded.topic;
  if (set) {
    const [updated] = await db
      .update(topics)
      .set(set)
      .where(and(eq(topics.orgId, viewer.orgId), eq(topics.id, topic.id)))
      .returning();
    if (updated) topic = updated;
  }
  return presentTopicSummary(topic, org, permissionsOf({ ...loaded, topic }));
}

/** Readers each wider access level lets in, as document ACLs name them. */
const AUDIENCES = {
  ORG: [ORG_PRINCIPAL, PUBLIC_PRINCIPAL],
  PUBLIC: [PUBLIC_PRINCIPAL],
} as const satisfies Record<keyof TopicShareCheckResponse['narrower_sources'], readonly Principal[]>;

/** `GET /topics/topic/{id}/share_check`: whether widening the topic would show answers some new readers must not see. */
export async function shareCheck(
  db: DbOrTx,
  viewer: Viewer,
  topicId: string,
): Promise<TopicShareCheckResponse> {
  const loaded = await topicToView(db, viewer, topicId);
  if (!canShareTopic(loaded.topic, loaded.relation)) {
    return { may_share: false, narrower_sources: { ORG: false, PUBLIC: false } };
  }
  const rows = await topicMessageRows(db, viewer.orgId, loaded.topic.id);
  const sources = rows.filter((row) => row.sender === 'ASSISTANT').flatMap(answerSources);
  const narrowerFor = async (principals: readonly Principal[]) => {
    const isReadable = await readableDocuments(db, { orgId: viewer.orgId, principals }, sources);
    return !sources.every(isReadable);
  };
  const [org, open] = await Promise.all([narrowerFor(AUDIENCES.ORG), narrowerFor(AUDIENCES.PUBLIC)]);
  return { may_share: true, narrower_sources: { ORG: org, PUBLIC: open } };
}

/** The owner deletes the topic with its messages, members and file links (the rows cascade). */
export async function deleteTopic(db: DbOrTx, viewer: Viewer, topicId: string): Promise<void> {
  const { topic } = await topicToDelete(db, viewer, topicId);
  await db.delete(topics).where(and(eq(topics.orgId, viewer.orgId), eq(topics.id, topic.id)));
}

/**
 * The viewer has read the topic up to now. Only participants keep a read marker: the owner (whose marker row is
 * created here) and the members. Someone reading a workspace-wide topic gets no row, because a member row would
 * make them an editor once the topic is shared.
 */
export async function markTopicRead(
  db: DbOrTx,
  viewer: Viewer,
  topicId: string,
  now = new Date(),
): Promise<void> {
  const loaded = await topicToView(db, viewer, topicId);
  if (isTopicOwner(loaded.topic, loaded.relation)) {
    await db
      .insert(topicMembers)
      .values({
        orgId: viewer.orgId,
        topicId: loaded.topic.id,
        userId: viewer.userId,
        role: 'CREATOR',
        lastReadAt: now,
      })
      .onConflictDoUpdate({ target: [topicMembers.topicId, topicMembers.userId], set: { lastReadAt: now } });
  } else if (loaded.membership) {
    await db
      .update(topicMembers)
      .set({ lastReadAt: now })
      .where(
        and(
          eq(topicMembers.orgId, viewer.orgId),
          eq(topicMembers.topicId, loaded.topic.id),
          eq(topicMembers.userId, viewer.userId),
        ),
      );
  }
}

/** `PATCH /messages/mark_all_as_read`: every topic the viewer owns or is a member of is read up to now. */
export async function markAllTopicsRead(db: DbOrTx, viewer: Viewer, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await db.execute(sql`
    insert into ${topicMembers} (org_id, topic_id, user_id, role, last_read_at)
    select ${topics.orgId}, ${topics.id}, ${viewer.userId}, 'CREATOR', ${at}::timestamptz
    from ${topics}
    where ${topics.orgId} = ${viewer.orgId} and ${topics.authorId} = ${viewer.userId}
    on conflict (topic_id, user_id) do update set last_read_at = excluded.last_read_at`);
  await db
    .update(topicMembers)
    .set({ lastReadAt: now })
    .where(and(eq(topicMembers.orgId, viewer.orgId), eq(topicMembers.userId, viewer.userId)));
}
