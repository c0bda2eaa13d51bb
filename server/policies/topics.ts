// Who may do what to a topic (spec asking-questions §6, shell-and-account §4.6 and §6). Pure rules over what the
// store knows of the topic, the viewer and the org; server/topics loads those facts and applies the refusals.
// A viewer who may not see a topic learns nothing about it: every refusal to a non-viewer is a 404, and only
// someone who can already read the topic is told 403 for what they may not do to it.
import { topicMessages } from '../../common/api/topics';
import { parseFlags } from '../../common/flags';
import type { Org, Topic } from '../db/schema';
import { forbidden, notFound } from '../errors';

export type TopicFacts = Pick<Topic, 'orgId' | 'authorId' | 'visibility' | 'isMultiplayer'>;

/** One signed-in viewer's relation to one topic, as the store answers it. */
export type TopicRelation = {
  userId: string;
  orgId: string;
  /** A topic_members row (tagged, added, or the owner's own read marker). */
  isMember: boolean;
  /** An admin of the managed bot the topic is addressed to (they watch and answer its conversations). */
  isManagedBotAdmin: boolean;
  /** An admin of the org. */
  isOrgAdmin: boolean;
};

export type PublicTopicsSetting = Pick<Org, 'publicTopicsEnabled' | 'flags'>;

export function isTopicOwner(topic: TopicFacts, relation: TopicRelation): boolean {
  return topic.orgId === relation.orgId && topic.authorId !== null && topic.authorId === relation.userId;
}

/** Members count only while the topic is shared (multiplayer); an invite-only topic is the owner's alone. */
function isParticipant(topic: TopicFacts, relation: TopicRelation): boolean {
  return (
    isTopicOwner(topic, relation) || (topic.isMultiplayer && relation.isMember) || relation.isManagedBotAdmin
  );
}

/**
 * The owner; its members while it is multiplayer; admins of its managed bot; anyone in the org when it is
 * workspace-wide. A public topic is workspace-wide too, whatever the public setting says now.
 */
export function canViewTopic(topic: TopicFacts, relation: TopicRelation): boolean {
  if (topic.orgId !== relation.orgId) return false;
  return isParticipant(topic, relation) || topic.visibility === 'ORG' || topic.visibility === 'PUBLIC';
}

/** Rename, add members, post: the owner and the topic's members (all members are editors). */
export function canEditTopic(topic: TopicFacts, relation: TopicRelation): boolean {
  return topic.orgId === relation.orgId && isParticipant(topic, relation);
}

/**
 * Who may change who can open the topic (invite-only, workspace, public): its owner, or an admin of the org who can
 * see it. Not its editors: widening the audience shows the owner's answers to people the owner did not choose.
 */
export function canShareTopic(topic: TopicFacts, relation: TopicRelation): boolean {
  return isTopicOwner(topic, relation) || (relation.isOrgAdmin && canViewTopic(topic, relation));
}

export function canDeleteTopic(topic: TopicFacts, relation: TopicRelation): boolean {
  return isTopicOwner(topic, relation);
}

/** The public access level is offered only when both the org's setting and the publicTopics flag are on. */
export function publicTopicsAllowed(org: PublicTopicsSetting): boolean {
  return org.publicTopicsEnabled && parseFlags(org.flags).publicTopics;
}

/** Readable by anyone with the link, signed in or not. */
export function isPubliclyReadable(topic: Pick<Topic, 'visibility'>, org: PublicTopicsSetting): boolean {
  return topic.visibility === 'PUBLIC' && publicTopicsAllowed(org);
}

export function requireTopicView(topic: TopicFacts, relation: TopicRelation): void {
  if (!canViewTopic(topic, relation)) throw notFound(topicMessages.NOT_FOUND);
}

export function requireTopicEdit(topic: TopicFacts, relation: TopicRelation): void {
  requireTopicView(topic, relation);
  if (!canEditTopic(topic, relation)) throw forbidden(topicMessages.EDIT_NOT_ALLOWED);
}

export function requireTopicShare(topic: TopicFacts, relation: TopicRelation): void {
  requireTopicView(topic, relation);
  if (!canShareTopic(topic, relation)) throw forbidden(topicMessages.ONLY_OWNER_CAN_SHARE);
}

export function requireTopicDelete(topic: TopicFacts, relation: TopicRelation): void {
  requireTopicView(topic, relation);
  if (!canDeleteTopic(topic, relation)) throw forbidden(topicMessages.ONLY_OWNER_CAN_DELETE);
}

export function requirePublicTopicsAllowed(org: PublicTopicsSetting): void {
  if (!publicTopicsAllowed(org)) throw forbidden(topicMessages.PUBLIC_TOPICS_OFF);
}
