// Chat messages as the API and the chat socket send them (spec shell-and-account §3 Chat message, asking-questions
// §3 Message). Field names are the spec's wire names, mixed case included. The server stores references,
// allReferencesSummary, relatedSearches, debugLogs, extraData and skillRetrieved in these shapes, so a presenter
// passes them through unchanged.
import { z } from 'zod';

export const MESSAGE_SENDERS = ['USER', 'ASSISTANT'] as const;
export const messageSenderSchema = z.enum(MESSAGE_SENDERS);
export type MessageSender = z.infer<typeof messageSenderSchema>;

/** PENDING while the answer is being made (and the user message at creation), then one of the three ends. */
export const MESSAGE_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'CANCELLED'] as const;
export const messageStatusSchema = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

/** Sources a reference can come from besides an app's shortname (spec asking-questions §3). */
export const ReferenceSource = {
  verifiedAnswers: 'verified_answers',
  files: 'files',
  web: 'web',
  website: 'website',
  customApi: 'custom-api',
} as const;

/** Why an assistant message holds a fixed text instead of a generated answer (extraData.staticAnswerType). */
export const STATIC_ANSWER_TYPES = ['onboarding', 'stopped', 'failed', 'rate_limited'] as const;
export const staticAnswerTypeSchema = z.enum(STATIC_ANSWER_TYPES);
export type StaticAnswerType = z.infer<typeof staticAnswerTypeSchema>;

export const referenceAuthorSchema = z.object({
  email: z.string().nullable(),
  name: z.string().nullable(),
  photo: z.string().nullable(),
});
export type ReferenceAuthor = z.infer<typeof referenceAuthorSchema>;

/** A cited document. References are listed in citation order: the answer's [n] is the n-th reference. */
export const referenceSchema = z.object({
  /** The document id (a URL's hash for web results). */
  id: z.string(),
  url: z.string().nullable(),
  title: z.string(),
  /** An app shortname, or one of ReferenceSource. */
  source: z.string(),
  snippet: z.string(),
  author: referenceAuthorSchema,
  /** ISO-8601. */
  modified_time: z.string().nullable(),
  object_type: z.string().nullable(),
  extra_fields: z.object({ icon_url: z.string().nullable().optional() }).catchall(z.unknown()),
});
export type Reference = z.infer<typeof referenceSchema>;

/** Documents retrieved per app for the answer. */
export const appReferencesCountSchema = z.object({ appName: z.string(), numDocs: z.number().int().min(0) });
export type AppReferencesCount = z.infer<typeof appReferencesCountSchema>;

/** What the retrieval looked at, beyond the cited references: counts per app and the apps' names. */
export const allReferencesSummarySchema = z.object({
  app_references_count: z.array(appReferencesCountSchema),
  app_names: z.array(z.string()),
});
export type AllReferencesSummary = z.infer<typeof allReferencesSummarySchema>;

/** SKILL_RETRIEVED's payload and the message's skillRetrieved list. */
export const skillRetrievedSchema = appReferencesCountSchema;
export type SkillRetrieved = z.infer<typeof skillRetrievedSchema>;

export const debugStageSchema = z.object({
  stage: z.string(),
  /** Milliseconds since the query was accepted. */
  at_ms: z.number(),
  detail: z.string().optional(),
});
export type DebugStage = z.infer<typeof debugStageSchema>;

/** debugLogs: the stages passed (at most DEBUG_STAGES_MAX), the total time and what was retrieved. */
export const debugLogsSchema = z.object({
  stages: z.array(debugStageSchema),
  /** Milliseconds from the query to the saved answer. */
  execution_time: z.number().nullable(),
  doc_data: z.array(
    z.object({ id: z.string(), title: z.string(), source: z.string(), score: z.number().nullable() }),
  ),
});
export type DebugLogs = z.infer<typeof debugLogsSchema>;

/** The reader's own feedback: their thumb, and their votes on the references they are shown (reference id → ±1). */
export const messageFeedbackSchema = z.object({
  rating: z.union([z.literal(1), z.literal(-1), z.literal(0)]),
  references_feedback: z.record(z.string(), z.union([z.literal(1), z.literal(-1)])).optional(),
});

/** A page of the open web a Web mode answer read (WEB_VIEW_URLS). */
export const webPageSchema = z.object({ url: z.string(), title: z.string() });
export type WebPage = z.infer<typeof webPageSchema>;

/** How many web pages a Web mode answer read, from which sites (ALL_WEB_VIEW_URLS_SUMMARY). */
export const webPagesSummarySchema = z.object({
  count: z.number().int().min(0),
  domains: z.array(z.string()),
});
export type WebPagesSummary = z.infer<typeof webPagesSummarySchema>;

export const messageExtraDataSchema = z
  .object({
    staticAnswerType: staticAnswerTypeSchema.optional(),
    messageFeedback: messageFeedbackSchema.optional(),
    /** The model that wrote the answer ('extractive' when none is configured). Ours. */
    llm: z.string().optional(),
    /** The web pages the answer read, as WEB_VIEW_URLS sent them, so they show again after a reload. Ours. */
    webViewUrls: z.array(webPageSchema).optional(),
    /** ALL_WEB_VIEW_URLS_SUMMARY as sent, kept for the same reason. Ours. */
    allWebViewUrlsSummary: webPagesSummarySchema.optional(),
  })
  .catchall(z.unknown());
export type MessageExtraData = z.infer<typeof messageExtraDataSchema>;

export const messageFileSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** -1: not indexed yet. */
  total_chunks: z.number().int(),
});
export type MessageFile = z.infer<typeof messageFileSchema>;

export const topicAccessSchema = z.object({
  isMultiplayer: z.boolean(),
  isOrgWide: z.boolean(),
  isPublic: z.boolean(),
});
export type TopicAccess = z.infer<typeof topicAccessSchema>;

export const messageAuthorSchema = z.object({
  email: z.string().nullable(),
  display_name: z.string().nullable(),
  icon: z.string().nullable(),
});
export type MessageAuthor = z.infer<typeof messageAuthorSchema>;

export const chatMessageSchema = z.object({
  row_id: z.number().int(),
  message_id: z.string(),
  conversation_id: z.string(),
  /** ISO-8601: when the topic started. */
  conversation_timestamp: z.string(),
  topic_title: z.string(),
  topicAccess: topicAccessSchema,
  sender: messageSenderSchema,
  messageText: z.string(),
  messageEncoding: z.literal('PLAIN_TEXT'),
  messageType: z.string().nullable(),
  /** ISO-8601. */
  tsSentAt: z.string(),
  author: messageAuthorSchema.nullable(),
  bot_id: z.string().nullable(),
  bot_name: z.string().nullable(),
  bot_icon: z.string().nullable(),
  /** The user message an assistant message answers (feedback's query_id). Ours. */
  reply_to_id: z.string().nullable(),
  references: z.array(referenceSchema),
  allReferencesSummary: allReferencesSummarySchema.nullable(),
  relatedSearches: z.array(z.string()),
  debugLogs: debugLogsSchema.nullable(),
  files: z.array(messageFileSchema),
  extraData: messageExtraDataSchema,
  skillRetrieved: z.array(skillRetrievedSchema).nullable(),
  deepresearch: z.boolean(),
  status: messageStatusSchema,
  isQueryAccepted: z.boolean().nullable(),
  /** True while the text is still being written (PENDING with some text). */
  isPreFinalGeneration: z.boolean(),
  /** Deep research progress, 0–100; null for ordinary answers. */
  progressBar: z.number().int().min(0).max(100).nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;
