// Topics (conversations), their members and their messages over HTTP (spec shell-and-account §3 Topic, Topic
// member, §4.6, §7.3; asking-questions §3, §4 topic title editing, §6, §7). The chat socket writes topics and
// messages (common/api/chat.ts); these calls read and manage them. Field names are the spec's wire names.
import { z } from 'zod';
import { input as inputStrings } from '../strings';
import { QUERY_MAX_CHARS } from './chat';
import { isInstantInRange } from './input';
import { chatMessageSchema, messageFileSchema, topicAccessSchema } from './messages';

/** Topics per page of `GET /topics`; a shorter page is the last. */
export const TOPICS_PAGE_SIZE = 20;
/** Messages per page of `GET /_chatHistory` (a page grows past it only to keep messages of one instant together). */
export const CHAT_HISTORY_PAGE_SIZE = 20;
/** Ours: the spec states no limit. Longer titles are refused (400). */
export const TOPIC_TITLE_MAX_CHARS = 256;

export const TOPIC_TYPES = ['MY_TOPICS', 'SHARED_WITH_ME', 'MANAGED_BOTS'] as const;
export type TopicType = (typeof TOPIC_TYPES)[number];

/** Stored visibility; `PATCH /topics/topic/{id}` sets it with is_public or visibility ORG / PRIVATE. */
export const TOPIC_VISIBILITIES = ['INVITE_ONLY', 'PUBLIC', 'ORG'] as const;
export type TopicVisibility = (typeof TOPIC_VISIBILITIES)[number];

export const TOPIC_MEMBER_ROLES = ['CREATOR', 'EDITOR'] as const;
export type TopicMemberRole = (typeof TOPIC_MEMBER_ROLES)[number];

/** The server's refusals (ours: the spec quotes only the app's toasts for these calls). */
export const topicMessages = {
  NOT_FOUND: 'Topic not found.',
  MESSAGE_NOT_FOUND: 'Message not found.',
  EDIT_NOT_ALLOWED: 'Only the topic owner and its members can change this topic.',
  ONLY_OWNER_CAN_DELETE: 'Only the topic owner can delete this topic.',
  ONLY_OWNER_CAN_SHARE: 'Only the topic owner or an admin can change who can open this topic.',
  PUBLIC_TOPICS_OFF: 'Public topics are not enabled for this workspace.',
  NEEDS_SOMEONE_TAGGED: 'Tag a colleague to share this topic, or write in a topic that is already shared.',
  notAMember: (email: string) => `${email} is not a member of this workspace.`,
} as const;

const topicId = z.uuid();

// ---------------------------------------------------------------------------------------------
// Shared shapes
// ---------------------------------------------------------------------------------------------

/** A person as a topic shows them (the topic's author, a member). */
export const topicPersonSchema = z.object({
  email: z.string().nullable(),
  display_name: z.string().nullable(),
  icon: z.string().nullable(),
});
export type TopicPerson = z.infer<typeof topicPersonSchema>;

/** A file of the topic (the spec's topic file map). created_at lets the app warn about files over 30 days old. */
export const topicFileSchema = messageFileSchema.extend({
  /** ISO-8601. */
  created_at: z.string(),
});
export type TopicFile = z.infer<typeof topicFileSchema>;

/**
 * A topic as its viewers see it. topicAccess is what is in force: a PUBLIC topic of an org that has since turned
 * public topics off reads as workspace-wide. isEditable and isDeletable drive the rename and delete actions.
 */
export const topicSummarySchema = z.object({
  conversation_id: z.string(),
  topic_title: z.string(),
  /** ISO-8601: when the topic started. */
  conversation_timestamp: z.string(),
  visibility: z.enum(TOPIC_VISIBILITIES),
  topicAccess: topicAccessSchema,
  isEditable: z.boolean(),
  isDeletable: z.boolean(),
});
export type TopicSummary = z.infer<typeof topicSummarySchema>;

export const topicParamsSchema = z.object({ id: topicId });
export const conversationParamsSchema = z.object({ conversationId: topicId });

// ---------------------------------------------------------------------------------------------
// GET /topics?page=&query=&topic_type=&managed_bot_id=
// ---------------------------------------------------------------------------------------------

/**
 * page is 1-based. MY_TOPICS: the viewer's own; SHARED_WITH_ME: shared topics they were added or tagged to;
 * MANAGED_BOTS: conversations of the managed bots they administer (managed_bot_id: one of them). Most recent
 * activity first; query matches the title.
 */
export const topicsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  query: z.string().trim().max(TOPIC_TITLE_MAX_CHARS).optional(),
  topic_type: z.enum(TOPIC_TYPES).default('MY_TOPICS'),
  managed_bot_id: z.uuid().optional(),
});
export type TopicsQuery = z.infer<typeof topicsQuerySchema>;

export const topicListItemSchema = z.object({
  topicId: z.string(),
  topicTitle: z.string(),
  /** ISO-8601. */
  createdAt: z.string(),
  /** Messages by others since the viewer last read the topic. */
  unreadCount: z.number().int().min(0),
});
export type TopicListItem = z.infer<typeof topicListItemSchema>;

export const topicsResponseSchema = z.object({ topics: z.array(topicListItemSchema) });
export type TopicsResponse = z.infer<typeof topicsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// GET /topics/topicById/{id} and GET /topics/publicTopicById/{id}
// ---------------------------------------------------------------------------------------------

/** A topic the viewer may see, all its messages oldest first, and its files. */
export const topicByIdResponseSchema = topicSummarySchema.extend({
  /** The owner; null when their account is gone. */
  author: topicPersonSchema.nullable(),
  messages: z.array(chatMessageSchema),
  topic_files: z.array(topicFileSchema),
});
export type TopicByIdResponse = z.infer<typeof topicByIdResponseSchema>;

/**
 * A public topic, readable without signing in (404 for anything that is not public now). Authors' emails, debug
 * logs, files and feedback are left out, and references only to documents anyone may read are kept.
 */
export const publicTopicResponseSchema = z.object({
  conversation_id: z.string(),
  topic_title: z.string(),
  conversation_timestamp: z.string(),
  messages: z.array(chatMessageSchema),
});
export type PublicTopicResponse = z.infer<typeof publicTopicResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Members: GET /topics/topic/members/{conversationId}, POST /topics/topic/member
// ---------------------------------------------------------------------------------------------

/** The author is CREATOR (shown 'Owner'); everyone else is an EDITOR ('Can edit'). */
export const topicMemberSchema = topicPersonSchema.extend({
  user_id: z.string().nullable(),
  role: z.enum(TOPIC_MEMBER_ROLES),
  conversation_id: z.string(),
});
export type TopicMember = z.infer<typeof topicMemberSchema>;

/** The admins of the managed bot the topic is addressed to, grouped per bot. */
export const managedBotAdminsSchema = z.object({
  bot_id: z.string(),
  bot_name: z.string(),
  bot_icon: z.string().nullable(),
  members: z.array(topicMemberSchema),
});

export const topicMembersResponseSchema = z.object({
  managed_bot_admins: z.array(managedBotAdminsSchema),
  members: z.array(topicMemberSchema),
});
export type TopicMembersResponse = z.infer<typeof topicMembersResponseSchema>;

/** Adds a member of the org (400 when no active member has the address) as an EDITOR; the topic becomes shared. */
export const addTopicMemberRequestSchema = z
  .object({ conversation_id: topicId, user_email: z.string().trim().min(1).max(320) })
  .strict();
export type AddTopicMemberRequest = z.infer<typeof addTopicMemberRequestSchema>;

// ---------------------------------------------------------------------------------------------
// PATCH /topics/topic/{id}, DELETE /topics/topic/{id}, PATCH /topics/topic/{id}/mark_as_read
// ---------------------------------------------------------------------------------------------

/**
 * One change per call: a new title (blank keeps the previous one, which is answered), is_public true (needs the
 * org's public topics and the publicTopics flag, else 403), or visibility ORG or PRIVATE (invite-only).
 */
export const topicUpdateRequestSchema = z.union([
  z.object({ topic_title: z.string().max(TOPIC_TITLE_MAX_CHARS) }).strict(),
  z.object({ is_public: z.literal(true) }).strict(),
  z.object({ visibility: z.enum(['ORG', 'PRIVATE']) }).strict(),
]);
export type TopicUpdateRequest = z.infer<typeof topicUpdateRequestSchema>;

/**
 * `GET /topics/topic/{id}/share_check`. Ours: for the share dialog's warning, whether the topic's answers draw on
 * documents that not everyone in a wider audience may read (ORG: the workspace; PUBLIC: anyone with the link).
 * Answered only to those who may change the access level (may_share); others get false for both.
 */
export const topicShareCheckResponseSchema = z.object({
  may_share: z.boolean(),
  narrower_sources: z.object({ ORG: z.boolean(), PUBLIC: z.boolean() }),
});
export type TopicShareCheckResponse = z.infer<typeof topicShareCheckResponseSchema>;

// ---------------------------------------------------------------------------------------------
// GET /_chatHistory?scroll_timestamp=&api_version=2
// ---------------------------------------------------------------------------------------------

/** ISO-8601, or milliseconds since the epoch. */
const instantSchema = z
  .union([z.iso.datetime({ offset: true }), z.string().regex(/^\d{1,15}$/)])
  .transform((value) => new Date(/^\d+$/.test(value) ? Number(value) : value))
  .refine(isInstantInRange, inputStrings.DATE_OUT_OF_RANGE);

/**
 * The viewer's messages across their own and their shared topics, newest first: those sent before scroll_timestamp
 * (pass the oldest tsSentAt received to scroll further up), or the latest without it.
 */
export const chatHistoryQuerySchema = z.object({
  scroll_timestamp: instantSchema.optional(),
  api_version: z.coerce.number().pipe(z.literal(2)).default(2),
});
export type ChatHistoryQuery = z.infer<typeof chatHistoryQuerySchema>;

export const chatHistoryResponseSchema = z.object({
  history: z.array(chatMessageSchema),
  /** Files of each topic in `history`, by conversation_id. */
  conversation_files_map: z.record(z.string(), z.array(topicFileSchema)),
  /** Older messages exist. Ours. */
  has_more: z.boolean(),
});
export type ChatHistoryResponse = z.infer<typeof chatHistoryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Messages: GET /messages/message/{id}, POST /messages/create, PATCH /messages/mark_all_as_read
// ---------------------------------------------------------------------------------------------

export const messageParamsSchema = z.object({ id: z.uuid() });

/** message_data.message_text once the answer is saved; status tells PENDING from the three ends. */
export const messageByIdResponseSchema = z.object({
  data: z.object({
    status: chatMessageSchema.shape.status,
    message_data: z.object({ message_text: z.string() }),
    message: chatMessageSchema,
  }),
});
export type MessageByIdResponse = z.infer<typeof messageByIdResponseSchema>;

const taggedPersonSchema = z.object({
  id: z.string().max(64).optional(),
  name: z.string().max(256).nullish(),
  email: z.string().trim().max(320),
  avatar: z.string().max(10_000).nullish(),
});

/**
 * A message to colleagues in a shared topic (no answer is generated; questions go through the chat socket). A new
 * conversation_id starts a topic. Everyone tagged (by tagged_users or tagged_emails; each must be an active member
 * of the org, else 400) becomes an editor and the topic becomes shared; without anyone tagged the topic must be
 * shared already (400). sender is the signed-in member whatever the body says.
 */
export const createMessageRequestSchema = z
  .object({
    message: z.string().trim().min(1).max(QUERY_MAX_CHARS),
    conversation_id: topicId,
    sender: z
      .object({
        id: z.string().max(64).optional(),
        email: z.string().max(320).optional(),
        name: z.string().max(256).nullish(),
        avatar: z.string().max(10_000).nullish(),
      })
      .optional(),
    tagged_users: z.array(taggedPersonSchema).max(50).default([]),
    tagged_emails: z.array(z.string().trim().max(320)).max(50).default([]),
  })
  .strict();
export type CreateMessageRequest = z.infer<typeof createMessageRequestSchema>;
export type CreateMessageRequestInput = z.input<typeof createMessageRequestSchema>;

export const createMessageResponseSchema = z.object({
  topic_title: z.string(),
  message: chatMessageSchema,
});
export type CreateMessageResponse = z.infer<typeof createMessageResponseSchema>;
