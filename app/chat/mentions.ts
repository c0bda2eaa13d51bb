// @mention tagging in the question box (spec asking-questions §2, §3 Mention markup, §4 Topic access, §9): typing
// @ and a few letters suggests colleagues; picking one writes @Name into the text and tags them. A message with
// anyone tagged goes to them (POST /messages/create) rather than to the assistant. Pure, so it is tested alone.
import type { CreateMessageRequestInput } from '../../common/api/topics';
import type { Member } from '../../common/api/members';
import { MENTION_PEOPLE_SUGGESTIONS_MAX } from '../../common/limits';
import { shell as shellStrings } from '../../common/strings';

/** A colleague tagged in the message being written. */
export type TaggedMember = { id: string; name: string; email: string; avatar: string | null };

/** The @word the caret is in: where its @ is and what follows it so far. */
export type MentionQuery = { start: number; query: string };

/**
 * The mention being typed at the caret, if any: an @ at the start or after white space, then letters up to the
 * caret with no white space (a name of two words is picked from the list, not typed out).
 */
export function activeMention(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

/** How a member is shown and written: their name, else 'Invited User' as everywhere else. */
export function mentionName(member: Pick<Member, 'name'>): string {
  return member.name?.trim() || shellStrings.INVITED_USER;
}

/**
 * Colleagues to suggest for the query: active members (not blocked or deleted) other than the writer and those
 * already tagged, whose name or email contains it, at most MENTION_PEOPLE_SUGGESTIONS_MAX.
 */
export function mentionSuggestions(
  members: readonly Member[],
  query: string,
  exclude: { selfEmail: string; tagged: readonly TaggedMember[] },
): Member[] {
  const wanted = query.trim().toLowerCase();
  const taken = new Set([
    exclude.selfEmail.toLowerCase(),
    ...exclude.tagged.map((t) => t.email.toLowerCase()),
  ]);
  return members
    .filter((member) => member.status !== 'BLOCKED' && member.status !== 'DELETED')
    .filter((member) => !taken.has(member.email.toLowerCase()))
    .filter(
      (member) =>
        wanted === '' ||
        member.email.toLowerCase().includes(wanted) ||
        (member.name ?? '').toLowerCase().includes(wanted),
    )
    .slice(0, MENTION_PEOPLE_SUGGESTIONS_MAX);
}

/** The text with the typed @query replaced by @Name and a space, the caret after it, and the member tagged. */
export function pickMention(
  text: string,
  mention: MentionQuery,
  member: Member,
  tagged: readonly TaggedMember[],
): { text: string; caret: number; tagged: TaggedMember[] } {
  const name = mentionName(member);
  const inserted = `@${name} `;
  const end = mention.start + 1 + mention.query.length;
  const rest = text.slice(end).replace(/^ /, '');
  return {
    text: `${text.slice(0, mention.start)}${inserted}${rest}`,
    caret: mention.start + inserted.length,
    tagged: [...tagged, { id: member.user_id, name, email: member.email, avatar: member.icon }],
  };
}

/** Those tagged whose @Name is still in the text: deleting the name untags the person. */
export function stillTagged(text: string, tagged: readonly TaggedMember[]): TaggedMember[] {
  return tagged.filter((member) => text.includes(`@${member.name}`));
}

/** The body of `POST /messages/create` for a message to the tagged colleagues in a topic. */
export function sharedMessageBody(input: {
  text: string;
  conversationId: string;
  sender: { id: string; email: string; name: string; avatar: string | null };
  tagged: readonly TaggedMember[];
}): CreateMessageRequestInput {
  return {
    message: input.text.trim(),
    conversation_id: input.conversationId,
    sender: input.sender,
    tagged_users: input.tagged.map(({ id, name, email, avatar }) => ({ id, name, email, avatar })),
    tagged_emails: [],
  };
}
