// The realtime socket /_realtime (spec shell-and-account §4.4, §4.7, §7.6; DESIGN §1): one authenticated WebSocket per
// tab carrying typed channels, as JSON text frames `{ "type": …, … }`. The first client message must be AUTH (the
// bearer id token, as on the chat socket); then SUBSCRIBE and UNSUBSCRIBE in any order, and AUTH again with a
// refreshed token (the app sends it on window focus). The server validates every incoming frame with
// realtimeClientMessageSchema; a server message over REALTIME_CHUNK_BYTES arrives as CHUNK frames (common/realtime-
// framing.ts) that the client reassembles by index into one server message.
import { z } from 'zod';
import { chat as chatStrings } from '../strings';
import { messageStatusSchema } from './messages';

export const REALTIME_SOCKET_PATH = '/_realtime';

/** Client frames above this are refused (1009): the client only ever sends a token and channel names. */
export const REALTIME_CLIENT_MESSAGE_MAX_BYTES = 16 * 1024;

/** Open realtime sockets per member (one per tab); the next one is closed with 4429. */
export const REALTIME_SOCKETS_PER_USER_MAX = 32;

/** Channels one socket may hold at once (a tab needs three or four). */
export const REALTIME_CHANNELS_PER_SOCKET_MAX = 16;

/** Close codes the server uses besides the standard ones. */
export const RealtimeCloseCode = {
  /** AUTH missing, malformed, with a bad or expired token, or the member was deactivated. */
  unauthorized: 4401,
  /** The member already has REALTIME_SOCKETS_PER_USER_MAX sockets open. */
  tooManySockets: 4429,
  /** Standard: a frame over REALTIME_CLIENT_MESSAGE_MAX_BYTES. */
  messageTooBig: 1009,
} as const;

/** Close reasons, for logs and tests (the app shows none of them); ours but the spec's 'Tokens not found'. */
export const RealtimeCloseReason = {
  TOKENS_NOT_FOUND: chatStrings.TOKENS_NOT_FOUND,
  INVALID_TOKEN: 'Invalid token',
  TOKEN_EXPIRED: 'Token expired',
  TOO_MANY_SOCKETS: 'Too many open realtime connections',
} as const;

// ---------------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------------

/**
 * `user` and `notifications` are always the socket's own member's (there is no way to name another's);
 * `topic:{id}` is a topic the member may view, checked on SUBSCRIBE and again while subscribed, in an org with
 * live topics (the realtimeMultiplayer flag) on.
 */
export const realtimeChannelSchema = z.union([
  z.literal('user'),
  z.literal('notifications'),
  z.templateLiteral(['topic:', z.uuid()]),
]);
export type RealtimeChannel = z.infer<typeof realtimeChannelSchema>;

export function topicChannel(topicId: string): RealtimeChannel {
  return `topic:${topicId}` as RealtimeChannel;
}

/** The topic id of a `topic:{id}` channel, or null. */
export function topicIdOf(channel: RealtimeChannel): string | null {
  return channel.startsWith('topic:') ? channel.slice('topic:'.length) : null;
}

/** `user`: the member's topic lists changed (they were added to or tagged in a topic, or one was shared). */
export const userEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('topics.changed') }),
]);
export type UserEvent = z.infer<typeof userEventSchema>;

/** `notifications`: the member's inbox. */
export const notificationsEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification.created'), unreadCount: z.number().int().min(0) }),
]);
export type NotificationsEvent = z.infer<typeof notificationsEventSchema>;

/**
 * `topic:{id}`: what others do in a topic, as it happens. References, related searches and counts are never sent
 * here: they are per reader, so a reader fetches the finished message through the REST presenter, which filters
 * them. An answer's text is sent only to readers who may read every source it was built from.
 */
export const topicEventSchema = z.discriminatedUnion('type', [
  /** A question or a message to colleagues was posted (with its pending answer, if any): read the topic again. */
  z.object({ type: z.literal('message.added'), topicId: z.string(), messageId: z.string() }),
  /**
   * More of an answer's text: `text` continues the answer at `offset` (UTF-16 code units into the whole text), so a
   * reader who fetched part of it over REST joins the two without repeating or losing any.
   */
  z.object({
    type: z.literal('answer.chunk'),
    topicId: z.string(),
    answerId: z.string(),
    offset: z.number().int().min(0),
    text: z.string(),
  }),
  /** The answer's row is final: fetch it (with the reader's own references) instead of the streamed text. */
  z.object({
    type: z.literal('answer.finished'),
    topicId: z.string(),
    answerId: z.string(),
    status: messageStatusSchema,
  }),
  /** The topic's title, access or members changed: read it again. */
  z.object({ type: z.literal('topic.changed'), topicId: z.string() }),
]);
export type TopicEvent = z.infer<typeof topicEventSchema>;

/** Each channel kind's events. */
export type ChannelEvents = { user: UserEvent; notifications: NotificationsEvent; topic: TopicEvent };
export type RealtimeEvent = ChannelEvents[keyof ChannelEvents];

// ---------------------------------------------------------------------------------------------
// Client → server
// ---------------------------------------------------------------------------------------------

export const realtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('AUTH'),
    /** The bearer id token (without 'Bearer '). Sent first, and again with a refreshed token. */
    token: z.string().min(1).max(8192),
  }),
  z.object({ type: z.literal('SUBSCRIBE'), channel: realtimeChannelSchema }),
  z.object({ type: z.literal('UNSUBSCRIBE'), channel: realtimeChannelSchema }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessageSchema>;

// ---------------------------------------------------------------------------------------------
// Server → client
// ---------------------------------------------------------------------------------------------

export const REALTIME_ERROR_CODES = [
  /** Not JSON, or not one of the client messages (the socket stays open). */
  'INVALID_MESSAGE',
  /** The channel is not the member's to read (a topic they may not view, or that does not exist). */
  'NOT_FOUND',
  /** More than REALTIME_CHANNELS_PER_SOCKET_MAX channels. */
  'TOO_MANY_CHANNELS',
  /** Live topics (the realtimeMultiplayer flag) are off for the member's org. */
  'LIVE_TOPICS_OFF',
  'INTERNAL',
] as const;
export const realtimeErrorCodeSchema = z.enum(REALTIME_ERROR_CODES);

/** Ours: the messages of the socket's ERRORs (the app shows none of them; they are for logs and scripts). */
export const RealtimeErrorMessage = {
  NOT_JSON_TEXT: 'Messages must be JSON text.',
  NOT_JSON: 'Messages must be JSON.',
  NO_SUCH_TOPIC: 'There is no such topic.',
  LIVE_TOPICS_OFF: 'Live topics are not enabled for this workspace.',
  TOO_MANY_CHANNELS: `A connection holds at most ${REALTIME_CHANNELS_PER_SOCKET_MAX} channels.`,
  INTERNAL: 'Something went wrong on the server. Please try again.',
} as const;
export type RealtimeErrorCode = z.infer<typeof realtimeErrorCodeSchema>;

/** A channel's event; `event` is one of the events of the channel's kind. */
export const eventMessageSchema = z.object({
  type: z.literal('EVENT'),
  channel: realtimeChannelSchema,
  event: z.union([userEventSchema, notificationsEventSchema, topicEventSchema]),
});

export const realtimeServerMessageSchema = z.discriminatedUnion('type', [
  /** AUTH was accepted (first or again). */
  z.object({ type: z.literal('READY') }),
  z.object({ type: z.literal('SUBSCRIBED'), channel: realtimeChannelSchema }),
  /** The subscription ended: asked for, or the member may no longer view the topic. */
  z.object({
    type: z.literal('UNSUBSCRIBED'),
    channel: realtimeChannelSchema,
    reason: z.enum(['REQUESTED', 'ACCESS_LOST']),
  }),
  eventMessageSchema,
  z.object({
    type: z.literal('ERROR'),
    code: realtimeErrorCodeSchema,
    message: z.string(),
    channel: realtimeChannelSchema.nullish(),
  }),
]);
export type RealtimeServerMessage = z.infer<typeof realtimeServerMessageSchema>;

/**
 * One piece of a server message over REALTIME_CHUNK_BYTES (spec §7.6): `data` is the `index`-th of `count` pieces
 * of the message's JSON text; joined in index order they are that text.
 */
export const chunkFrameSchema = z.object({
  type: z.literal('CHUNK'),
  id: z.string().min(1).max(64),
  index: z.number().int().min(0),
  count: z.number().int().min(2),
  data: z.string(),
});
export type ChunkFrame = z.infer<typeof chunkFrameSchema>;
