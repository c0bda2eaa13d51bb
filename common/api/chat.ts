// The chat socket /_chat_ws (spec shell-and-account §7.5, asking-questions §4 and §7): every message either side
// sends, as JSON text frames `{ "type": …, … }`. The first client message must be AUTH; then QUERY, RECONNECT and
// STOP_GENERATION in any order. The server validates every incoming frame with clientMessageSchema.
import { z } from 'zod';
import { chat as chatStrings } from '../strings';
import {
  allReferencesSummarySchema,
  debugLogsSchema,
  messageStatusSchema,
  referenceSchema,
  skillRetrievedSchema,
  webPageSchema,
  webPagesSummarySchema,
} from './messages';

export const CHAT_SOCKET_PATH = '/_chat_ws';

/** Frames above this are refused: the server closes with 1009 (message too big). */
export const CHAT_MESSAGE_MAX_BYTES = 64 * 1024;
/** Ours: the spec's soft limit is not shown; this hard cap keeps a question inside a frame with room to spare. */
export const QUERY_MAX_CHARS = 16_000;

/** Close codes the server uses besides the standard ones. */
export const ChatCloseCode = {
  /** AUTH missing, malformed or with a bad token: reason 'Tokens not found' or 'Invalid token'. */
  unauthorized: 4401,
  /** The member already has CHAT_SOCKETS_PER_USER_MAX sockets open. */
  tooManySockets: 4429,
  /** Standard: a frame over CHAT_MESSAGE_MAX_BYTES. */
  messageTooBig: 1009,
  /** Standard: the server is shutting down. */
  goingAway: 1001,
} as const;

export const ChatCloseReason = {
  TOKENS_NOT_FOUND: chatStrings.TOKENS_NOT_FOUND,
  INVALID_TOKEN: 'Invalid token',
  TOO_MANY_SOCKETS: 'Too many open chat connections',
} as const;

/** Open chat sockets per member; the next one is closed with 4429. */
export const CHAT_SOCKETS_PER_USER_MAX = 8;
/** Deep research requests per member per window (spec: default limit 10). */
export const RESEARCH_RATE_LIMIT = 10;
export const RESEARCH_RATE_WINDOW_MS = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Stages
// ---------------------------------------------------------------------------------------------

export const CHAT_STAGES = [
  'WAIT_USER_INPUT',
  'SENDING_REQUEST',
  'BUILDING_PROMPT',
  'GATHERING_DATA',
  'STREAMING_ANSWER',
  'WORKBOOK_EVENT',
  'MULTI_STEP_THOUGHT',
  'HOP_COMPLETED',
  'RECONNECTING',
] as const;
export const chatStageSchema = z.enum(CHAT_STAGES);
export type ChatStage = z.infer<typeof chatStageSchema>;

/** The label shown for a stage; null where the spec gives none. Deep research shows 'Researching...' throughout. */
export const STAGE_LABELS: Readonly<Record<ChatStage, string | null>> = {
  WAIT_USER_INPUT: null,
  SENDING_REQUEST: chatStrings.UNDERSTANDING_QUESTION,
  BUILDING_PROMPT: chatStrings.BUILDING_PROMPT,
  GATHERING_DATA: chatStrings.GATHERING_DATA,
  STREAMING_ANSWER: chatStrings.ANSWERING,
  WORKBOOK_EVENT: null,
  MULTI_STEP_THOUGHT: chatStrings.RESEARCHING,
  HOP_COMPLETED: chatStrings.RESEARCHING,
  RECONNECTING: null,
};

// ---------------------------------------------------------------------------------------------
// Sources (search scope, spec apps-and-connections §4 Search scope)
// ---------------------------------------------------------------------------------------------

/** Specify-sources entries of an app (confluence, gdrive, notion, slack). */
export const appDetailsSchema = z
  .object({
    files: z.array(z.string()),
    folders: z.array(z.string()),
    drives: z.array(z.string()),
    channels: z.array(z.string()),
    spaces: z.array(z.string()),
  })
  .partial();

export type AppDetails = z.infer<typeof appDetailsSchema>;

/**
 * Where a document says which container it is in, for the specify-sources fields: `extra[key]` holds the
 * container's id and name (and, for folders, every enclosing folder's), as a string or a list. An entry of a field
 * names the container by either. `files` entries name the document itself: its external id, title or URL.
 */
export const APP_DETAIL_EXTRA_KEYS = {
  folders: 'folder',
  drives: 'drive',
  channels: 'channel',
  spaces: 'space',
} as const satisfies Record<Exclude<keyof AppDetails, 'files'>, string>;

/** One app to search: its shortname, and the connection when only that one is meant. */
export const skillFilterSchema = z.object({
  app_name: z.string().min(1).max(64),
  /** An app connection id; absent or null means every connection of the app the asker can read. */
  app_id: z.string().max(64).nullish(),
  app_details: appDetailsSchema.nullish(),
});
export type SkillFilter = z.infer<typeof skillFilterSchema>;

const idList = z.array(z.string().min(1).max(64)).max(500);

/** Apps (skills), uploaded files and verified answers: everything of a kind, or the listed ones. */
export const querySourcesSchema = z.object({
  /** AI Only: answer from the model alone. */
  is_base_llm: z.boolean().default(false),
  /** Web: answer from a web search. */
  is_web: z.boolean().default(false),
  skills: z
    .object({
      search_all: z.boolean().default(false),
      filters: z.array(skillFilterSchema).max(200).default([]),
    })
    .default({ search_all: false, filters: [] }),
  /** Upload ids. */
  files: z
    .object({ search_all: z.boolean().default(false), filters: idList.default([]) })
    .default({ search_all: false, filters: [] }),
  /** Verified answer ids. */
  answers: z
    .object({ search_all: z.boolean().default(false), filters: idList.default([]) })
    .default({ search_all: false, filters: [] }),
});
export type QuerySources = z.infer<typeof querySourcesSchema>;
export type QuerySourcesInput = z.input<typeof querySourcesSchema>;

/** A QUERY without sources searches every app, file and verified answer the asker can read. */
export const ALL_APP_SOURCES: QuerySources = {
  is_base_llm: false,
  is_web: false,
  skills: { search_all: true, filters: [] },
  files: { search_all: true, filters: [] },
  answers: { search_all: true, filters: [] },
};

export const SEARCH_SCOPES = ['APPS', 'WEB', 'AI_ONLY'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

/** The scope a source selection means: the base-model flag wins, then the web filter, else Apps. */
export function searchScopeOf(sources: Pick<QuerySources, 'is_base_llm' | 'is_web'>): SearchScope {
  if (sources.is_base_llm) return 'AI_ONLY';
  if (sources.is_web) return 'WEB';
  return 'APPS';
}

/** Apps mode with nothing selected (spec: 'Please select some sources from the Apps tab and try again.'). */
export function selectsNothing(sources: QuerySources): boolean {
  return (
    !sources.skills.search_all &&
    sources.skills.filters.length === 0 &&
    !sources.files.search_all &&
    sources.files.filters.length === 0 &&
    !sources.answers.search_all &&
    sources.answers.filters.length === 0
  );
}

// ---------------------------------------------------------------------------------------------
// Client → server
// ---------------------------------------------------------------------------------------------

export const authMessageSchema = z.object({
  type: z.literal('AUTH'),
  /** The bearer id token (without 'Bearer '). */
  token: z.string().min(1).max(8192),
});

export const queryMessageSchema = z.object({
  type: z.literal('QUERY'),
  query: z
    .string()
    .trim()
    .min(1, 'Empty questions are not sent.')
    .max(QUERY_MAX_CHARS, `Questions are limited to ${QUERY_MAX_CHARS} characters.`),
  /** The client's placeholder row; the server answers the real ones in ROW_ID. */
  row_id: z.number().int().nullish(),
  /** A UUID the client chose for the user message (kept when unused), so it can RECONNECT by it. */
  message_id: z.uuid().nullish(),
  /** The topic to continue; absent, null or with isNewTopic a new topic starts. */
  conversation_id: z.uuid().nullish(),
  isNewTopic: z.boolean().default(false),
  /** Absent: every app, file and verified answer (ALL_APP_SOURCES). */
  sources: querySourcesSchema.nullish(),
  /** A model id of common/models; absent: the bot's, the member's, the org's or the default model. */
  llm_preference: z.string().max(100).nullish(),
  bot_id: z.uuid().nullish(),
  /** Minutes to add to UTC for the asker's local time (Date#getTimezoneOffset negated). */
  tz_offset: z.number().int().min(-1440).max(1440).nullish(),
  /** Uploads attached to this message. */
  uploaded_conversation_file_ids: idList.default([]),
  /** Every upload of the topic the answer may use. */
  all_contextual_files: idList.default([]),
  deepresearch: z.boolean().default(false),
});
export type QueryMessage = z.infer<typeof queryMessageSchema>;
export type QueryMessageInput = z.input<typeof queryMessageSchema>;

export const reconnectMessageSchema = z.object({
  type: z.literal('RECONNECT'),
  /** The pending user message (or its answer). */
  message_id: z.uuid(),
  deepresearch: z.boolean().default(false),
});
export type ReconnectMessage = z.infer<typeof reconnectMessageSchema>;

export const stopGenerationMessageSchema = z.object({
  type: z.literal('STOP_GENERATION'),
  /** Which answer; absent: the one this socket is following. */
  message_id: z.uuid().nullish(),
});

export const clientMessageSchema = z.discriminatedUnion('type', [
  authMessageSchema,
  queryMessageSchema,
  reconnectMessageSchema,
  stopGenerationMessageSchema,
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type ClientMessageInput = z.input<typeof clientMessageSchema>;

// ---------------------------------------------------------------------------------------------
// Server → client
// ---------------------------------------------------------------------------------------------

export const setStageMessageSchema = z.object({
  type: z.literal('SET_STAGE'),
  stage: chatStageSchema,
  /** STAGE_LABELS[stage], or 'Researching...' in deep research. */
  label: z.string().nullable(),
  /** Deep research: the server's progress, 0–100. */
  progressBar: z.number().int().min(0).max(100).nullish(),
  /** Deep research: what this hop looked for. */
  detail: z.string().nullish(),
});

/** A piece of the answer's text, to append. */
export const chunkMessageSchema = z.object({ type: z.literal('CHUNK'), text: z.string() });

export const skillRetrievedMessageSchema = skillRetrievedSchema.extend({
  type: z.literal('SKILL_RETRIEVED'),
});

/** Pages a web search found, as they are read. */
export const webViewUrlsMessageSchema = z.object({
  type: z.literal('WEB_VIEW_URLS'),
  urls: z.array(webPageSchema),
});

export const allWebViewUrlsSummaryMessageSchema = webPagesSummarySchema.extend({
  type: z.literal('ALL_WEB_VIEW_URLS_SUMMARY'),
});

export const relatedSearchesMessageSchema = z.object({
  type: z.literal('RELATED_SEARCHES'),
  relatedSearches: z.array(z.string()),
});

export const topicTitleMessageSchema = z.object({
  type: z.literal('TOPIC_TITLE'),
  conversation_id: z.string(),
  topic_title: z.string(),
});

export const debugLogsMessageSchema = z.object({ type: z.literal('DEBUG_LOGS'), debugLogs: debugLogsSchema });

/** The rows the query made: the user message and the answer being written (its message_id is the one to follow). */
export const rowIdMessageSchema = z.object({
  type: z.literal('ROW_ID'),
  conversation_id: z.string(),
  /** The answer. */
  row_id: z.number().int(),
  message_id: z.string(),
  /** The user message. */
  query_row_id: z.number().int(),
  query_message_id: z.string(),
});

export const answerCompleteMessageSchema = z.object({
  type: z.literal('ANSWER_COMPLETE'),
  conversation_id: z.string(),
  message_id: z.string(),
  row_id: z.number().int(),
  status: z.literal('SUCCESS'),
  /** The whole answer, as saved (the chunks joined). */
  messageText: z.string(),
  references: z.array(referenceSchema),
  allReferencesSummary: allReferencesSummarySchema,
  relatedSearches: z.array(z.string()),
  skillRetrieved: z.array(skillRetrievedSchema),
  topic_title: z.string(),
  /** The model id that answered, or 'extractive'. */
  llm: z.string(),
  deepresearch: z.boolean(),
});

export const rateLimitReachedMessageSchema = z.object({
  type: z.literal('RATE_LIMIT_REACHED'),
  limit: z.number().int().min(1),
  /** ISO-8601: when the next request is allowed. */
  reset_at: z.string(),
  message_id: z.string().nullish(),
});

export const queryAcceptedMessageSchema = z.object({
  type: z.literal('QUERY_ACCEPTED'),
  conversation_id: z.string(),
  /** The user message. */
  message_id: z.string(),
  isNewTopic: z.boolean(),
});

/** The answer's row reached its final state; fetch `GET /messages/message/{message_id}` if it was not finalised. */
export const answerSavedMessageSchema = z.object({
  type: z.literal('ANSWER_SAVED'),
  conversation_id: z.string(),
  message_id: z.string(),
  status: messageStatusSchema,
});

export const CHAT_ERROR_CODES = [
  /** Not JSON, or not one of the client messages (the socket stays open). */
  'INVALID_MESSAGE',
  /** A second AUTH. */
  'ALREADY_AUTHENTICATED',
  /** A QUERY while this socket or topic is already answering. */
  'BUSY',
  /** Refused by a rule of the request (sources, research with files, …); nothing was written. */
  'VALIDATION_FAILED',
  /** The topic or message is not the asker's to post to or follow. */
  'FORBIDDEN',
  'NOT_FOUND',
  /** The plan lacks the feature (enterprise model, deep research). */
  'PLAN_REQUIRED',
  /** The model is unknown, disabled for the org or has no provider configured. */
  'MODEL_UNAVAILABLE',
  /** Web mode with no web-search provider configured. */
  'WEB_SEARCH_UNAVAILABLE',
  /** The model provider failed; the answer is saved as FAILED. */
  'GENERATION_FAILED',
  /** Nothing to stop or reconnect to. */
  'NOTHING_TO_DO',
  /** The member asked more questions than CHAT_QUESTION_RATE_LIMIT allows; nothing was written. */
  'RATE_LIMITED',
  'INTERNAL',
] as const;
export const chatErrorCodeSchema = z.enum(CHAT_ERROR_CODES);
export type ChatErrorCode = z.infer<typeof chatErrorCodeSchema>;

export const errorMessageSchema = z.object({
  type: z.literal('ERROR'),
  code: chatErrorCodeSchema,
  message: z.string(),
  /** The message the error is about, when there is one. */
  message_id: z.string().nullish(),
});

export const serverMessageSchema = z.discriminatedUnion('type', [
  setStageMessageSchema,
  chunkMessageSchema,
  skillRetrievedMessageSchema,
  webViewUrlsMessageSchema,
  allWebViewUrlsSummaryMessageSchema,
  relatedSearchesMessageSchema,
  topicTitleMessageSchema,
  debugLogsMessageSchema,
  rowIdMessageSchema,
  answerCompleteMessageSchema,
  rateLimitReachedMessageSchema,
  queryAcceptedMessageSchema,
  answerSavedMessageSchema,
  errorMessageSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
