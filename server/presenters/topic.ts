import type { MessageFile, TopicAccess } from '../../common/api/messages';
import type {
  TopicFile,
  TopicListItem,
  TopicMember,
  TopicMemberRole,
  TopicPerson,
  TopicSummary,
} from '../../common/api/topics';
import type { Topic, Upload, User } from '../db/schema';
import { publicTopicsAllowed, type PublicTopicsSetting } from '../policies/topics';
import { displayNameOf } from './user';

/** The access in force: a PUBLIC topic of an org that has since turned public topics off is workspace-wide. */
export function presentTopicAccess(
  topic: Pick<Topic, 'visibility' | 'isMultiplayer'>,
  org: PublicTopicsSetting,
): TopicAccess {
  const isPublic = topic.visibility === 'PUBLIC' && publicTopicsAllowed(org);
  return {
    isMultiplayer: topic.isMultiplayer,
    isOrgWide: topic.visibility === 'ORG' || (topic.visibility === 'PUBLIC' && !isPublic),
    isPublic,
  };
}

export function presentTopicSummary(
  topic: Topic,
  org: PublicTopicsSetting,
  may: { edit: boolean; delete: boolean },
): TopicSummary {
  return {
    conversation_id: topic.id,
    topic_title: topic.topicTitle,
    conversation_timestamp: topic.createdAt.toISOString(),
    visibility: topic.visibility,
    topicAccess: presentTopicAccess(topic, org),
    isEditable: may.edit,
    isDeletable: may.delete,
  };
}

export function presentTopicListItem(
  topic: Pick<Topic, 'id' | 'topicTitle' | 'createdAt'>,
  unreadCount: number,
): TopicListItem {
  return {
    topicId: topic.id,
    topicTitle: topic.topicTitle,
    createdAt: topic.createdAt.toISOString(),
    unreadCount,
  };
}

export function presentTopicPerson(user: User): TopicPerson {
  return { email: user.email, display_name: displayNameOf(user), icon: user.photoUrl ?? null };
}

export function presentTopicMember(
  person: User | { email: string },
  role: TopicMemberRole,
  conversationId: string,
): TopicMember {
  const user = 'id' in person ? person : null;
  return {
    ...(user ? presentTopicPerson(user) : { email: person.email, display_name: null, icon: null }),
    user_id: user?.id ?? null,
    role,
    conversation_id: conversationId,
  };
}

export function presentMessageFile(upload: Pick<Upload, 'id' | 'fileName' | 'totalChunks'>): MessageFile {
  return { id: upload.id, title: upload.fileName, total_chunks: upload.totalChunks };
}

export function presentTopicFile(upload: Upload): TopicFile {
  return { ...presentMessageFile(upload), created_at: upload.createdAt.toISOString() };
}
