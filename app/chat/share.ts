// Topic sharing (spec asking-questions §2 Share settings, §6; shell-and-account §4.6, §7.3): the access level a topic
// has, the change that sets another, and which colleagues the member search offers. Pure, so the rules are tested
// without the dialog.
import type { Member } from '../../common/api/members';
import type { TopicAccess } from '../../common/api/messages';
import type { TopicMember, TopicUpdateRequest } from '../../common/api/topics';
import { MEMBER_SUGGESTIONS_MAX } from '../../common/limits';

export const ACCESS_LEVELS = ['INVITE_ONLY', 'ORG', 'PUBLIC'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The level a topic is at; public wins, as the server reads a public topic as workspace-wide too. */
export function accessLevelOf(access: TopicAccess): AccessLevel {
  if (access.isPublic) return 'PUBLIC';
  if (access.isOrgWide) return 'ORG';
  return 'INVITE_ONLY';
}

/** `PATCH /topics/topic/{id}`'s body for a level: is_public true, or visibility ORG or PRIVATE. */
export function accessChangeOf(level: AccessLevel): TopicUpdateRequest {
  if (level === 'PUBLIC') return { is_public: true };
  return { visibility: level === 'ORG' ? 'ORG' : 'PRIVATE' };
}

/** The levels offered: public only when both the org's public topics and the publicTopics flag are on. */
export function offeredAccessLevels(publicAllowed: boolean): AccessLevel[] {
  return ACCESS_LEVELS.filter((level) => level !== 'PUBLIC' || publicAllowed);
}

/**
 * Colleagues the search offers to add: matching the typed text by email or name, not already in the topic, not
 * blocked or deleted (the server refuses those), at most MEMBER_SUGGESTIONS_MAX. Nothing before text is typed.
 */
export function memberSuggestions(
  found: readonly Member[],
  typed: string,
  inTopic: readonly Pick<TopicMember, 'email'>[],
): Member[] {
  const needle = typed.trim().toLowerCase();
  if (!needle) return [];
  const present = new Set(inTopic.flatMap((member) => (member.email ? [member.email.toLowerCase()] : [])));
  return found
    .filter((member) => member.status !== 'BLOCKED' && member.status !== 'DELETED')
    .filter((member) => !present.has(member.email.toLowerCase()))
    .filter(
      (member) =>
        member.email.toLowerCase().includes(needle) || (member.name ?? '').toLowerCase().includes(needle),
    )
    .slice(0, MEMBER_SUGGESTIONS_MAX);
}

/** The address a topic is shared by. */
export function topicLink(origin: string, conversationId: string): string {
  return `${origin}/topic/${encodeURIComponent(conversationId)}`;
}
