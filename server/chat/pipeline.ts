/**
 * The answer pipeline (DESIGN §6): a QUERY is checked, its rows written, and the answer made in stages
 * SENDING_REQUEST → GATHERING_DATA → BUILDING_PROMPT → STREAMING_ANSWER → ANSWER_COMPLETE, saved as it streams. Also
 * STOP_GENERATION and RECONNECT. Sockets only listen: a generation goes on, and is saved, without any.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  ALL_APP_SOURCES,
  querySourcesSchema,
  searchScopeOf,
  selectsNothing,
  type ChatErrorCode,
  type ChatStage,
  type QueryMessage,
  type QuerySources,
  type ReconnectMessage,
  type SearchScope,
  type ServerMessage,
} from '../../common/api/chat';
import type {
  AllReferencesSummary,
  DebugLogs,
  MessageExtraData,
  Reference,
  SkillRetrieved,
} from '../../common/api/messages';
import { topicMessages } from '../../common/api/topics';
import { parseFlags, type Flags } from '../../common/flags';
import { Feature, planAllows } from '../../common/plans';
import { bots as botStrings, chat as chatStrings, validation } from '../../common/strings';
import type { Viewer } from '../context';
import {
  botAdmins,
  bots,
  messages,
  topics,
  users,
  type Bot,
  type Message,
  type Org,
  type Subscription,
  type Topic,
} from '../db/schema';
import type { Store } from '../db/store';
import { loadOrg } from '../orgs/load';
import { planRequiredMessage } from '../policies/access';
import { answerSources, answerView, readableDocuments } from '../presenters/message';
import { mayReadDebugLogs, viewerReadsDebugLogs } from '../policies/debug-logs';
import { canEditTopic, canViewTopic } from '../policies/topics';
import { loadTopic } from '../topics/access';
import { principalsFor } from '../search';
import type { LlmEnvironment } from '../llm/config';
import { extractiveAnswer } from '../llm/extractive';
import { streamModelText } from '../llm/generate';
import { ModelRefusedError, resolveAnswerModel, type AnswerModel } from '../llm/registry';
import { CitationRenumberer } from './citations';
import {
  Generation,
  failOrphanAnswer,
  stageLabel,
  type GenerationRegistry,
  type Listener,
} from './generations';
import { referenceOf, type Passage } from './passages';
import { buildMessages, buildSystemPrompt, type PromptInput } from './prompt';
import { completeSuggestions, suggestWithModel, type Suggestions } from './related';
import { PROGRESS_DONE, PROGRESS_START, PROGRESS_WRITING, researchPassages, researchQuota } from './research';
import { countByApp, retrieveFromApps } from './retrieval';
import {
  AnswerWriter,
  createExchange,
  finalizeAnswer,
  findAnswerTo,
  findMessage,
  findTopic,
  loadHistory,
  recordAnswerSources,
  recordStopRequest,
  stopRequestedAnswers,
  TopicBusyError,
  type Exchange,
  type FinalAnswer,
} from './rows';
import {
  domainOf,
  WEB_SEARCH_FAILED,
  WEB_SEARCH_NOT_CONFIGURED,
  WebSearchError,
  webPassage,
  webSearchProviderFor,
  type WebSearchProvider,
} from './web-search';

export type ChatSettings = {
  /** How often the streaming text is saved. */
  writeIntervalMs: number;
  /** A live answer's row is touched at least this often. */
  keepaliveMs: number;
  /** A PENDING answer not updated for this long belongs to a process that died. */
  staleAfterMs: number;
  /** RECONNECT to an answer written by another process polls its row this often. */
  followPollMs: number;
  /** A silent answer says its stage again after this long (below the client's 15 s inactivity time-out). */
  stageRepeatMs: number;
  /** How often this process looks for STOP_GENERATION requests other instances recorded for its answers. */
  stopPollMs: number;
};

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  writeIntervalMs: 250,
  keepaliveMs: 5_000,
  staleAfterMs: 30_000,
  followPollMs: 500,
  stageRepeatMs: 5_000,
  stopPollMs: 500,
};

const chatEnvSchema = z.object({
  /** Lower it behind a proxy that closes sockets idle for less than ~8 s. */
  CHAT_STAGE_REPEAT_MS: z.coerce.number().int().min(50).max(60_000).optional(),
});

/** The defaults, with the operator's CHAT_STAGE_REPEAT_MS; a bad value fails at start. */
export function loadChatSettings(env: NodeJS.ProcessEnv = process.env): ChatSettings {
  const parsed = chatEnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid CHAT_STAGE_REPEAT_MS: ${parsed.error.issues[0]?.message}`);
  return {
    ...DEFAULT_CHAT_SETTINGS,
    stageRepeatMs: parsed.data.CHAT_STAGE_REPEAT_MS ?? DEFAULT_CHAT_SETTINGS.stageRepeatMs,
  };
}

export type ChatDeps = {
  store: Store;
  log: FastifyBaseLogger;
  registry: GenerationRegistry;
  settings: ChatSettings;
  /** The providers' settings, read for each question. */
  llmEnvironment: () => LlmEnvironment;
};

/** A QUERY or RECONNECT refused before anything was written: the socket answers an ERROR and stays usable. */
export class ChatRefusal extends Error {
  override name = 'ChatRefusal';
  constructor(
    readonly code: ChatErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Passages given to the model for an ordinary answer. */
const ANSWER_PASSAGES = 8;
/** References shown when the model cited none. */
const FALLBACK_REFERENCES = 3;
/** Earlier messages of the topic given to the model. */
const HISTORY_MESSAGES = 6;

type Plan = {
  viewer: Viewer;
  query: QueryMessage;
  org: Org;
  subscriptions: Subscription[];
  flags: Flags;
  bot: Bot | null;
  topic: Topic | null;
  newTopicId: string | null;
  sources: QuerySources;
  scope: SearchScope;
  model: AnswerModel;
  web: WebSearchProvider | null;
  principals: string[];
  attachedUploadIds: string[];
  now: Date;
};

// ---------------------------------------------------------------------------------------------
// Accepting a question
// ---------------------------------------------------------------------------------------------

async function loadBot(
  store: Store,
  viewer: Viewer,
  botId: string,
  subs: Subscription[],
  now: Date,
): Promise<Bot> {
  const [bot] = await store.db
    .select()
    .from(bots)
    .where(and(eq(bots.orgId, viewer.orgId), eq(bots.id, botId), isNull(bots.deletedAt)))
    .limit(1);
  if (!bot) throw new ChatRefusal('NOT_FOUND', botStrings.DELETED_BOT_TOOLTIP);
  if (!bot.isDefault && !planAllows(subs, Feature.customBots, now)) {
    throw new ChatRefusal('PLAN_REQUIRED', planRequiredMessage(Feature.customBots));
  }
  const shared = bot.visibility === 'ORG' || bot.visibility === 'PUBLIC';
  if (!shared && bot.authorId !== viewer.userId) {
    const [admin] = await store.db
      .select({ email: botAdmins.email })
      .from(botAdmins)
      .where(
        and(
          eq(botAdmins.orgId, viewer.orgId),
          eq(botAdmins.botId, bot.id),
          eq(botAdmins.email, viewer.email),
        ),
      )
      .limit(1);
    if (!admin) throw new ChatRefusal('FORBIDDEN', 'This bot is not shared with you.');
  }
  return bot;
}

/** A bot's stored sources decide the scope (spec apps-and-connections §4); unreadable ones fall back to the query's. */
function sourcesFor(query: QueryMessage, bot: Bot | null): QuerySources {
  if (bot) {
    const parsed = querySourcesSchema.safeParse(bot.sources);
    if (parsed.success && (parsed.data.is_base_llm || parsed.data.is_web || !selectsNothing(parsed.data))) {
      return parsed.data;
    }
  }
  return query.sources ?? ALL_APP_SOURCES;
}

async function prepareQuery(deps: ChatDeps, viewer: Viewer, query: QueryMessage): Promise<Plan> {
  const { store } = deps;
  const now = new Date();
  const { org, subscriptions } = await loadOrg(store.db, viewer.orgId);
  const flags = parseFlags(org.flags);
  const [user] = await store.db
    .select({ preferredLlm: users.preferredLlm })
    .from(users)
    .where(and(eq(users.orgId, viewer.orgId), eq(users.id, viewer.userId)))
    .limit(1);
  const bot = query.bot_id ? await loadBot(store, viewer, query.bot_id, subscriptions, now) : null;
  const sources = sourcesFor(query, bot);
  const scope = searchScopeOf(sources);
  const attachedUploadIds = [
    ...new Set([...query.uploaded_conversation_file_ids, ...query.all_contextual_files]),
  ];

  if (scope === 'AI_ONLY' && flags.aiOnlyDisabled && !query.deepresearch) {
    throw new ChatRefusal('VALIDATION_FAILED', 'AI Only mode is turned off for this workspace.');
  }
  if (query.deepresearch) {
    if (!flags.deepresearch)
      throw new ChatRefusal('VALIDATION_FAILED', 'Research is not enabled for this workspace.');
    if (!planAllows(subscriptions, Feature.deepResearch, now)) {
      throw new ChatRefusal('PLAN_REQUIRED', planRequiredMessage(Feature.deepResearch));
    }
    if (attachedUploadIds.length > 0)
      throw new ChatRefusal('VALIDATION_FAILED', validation.RESEARCH_NO_ATTACHED_FILES);
    if (scope === 'AI_ONLY') {
      throw new ChatRefusal(
        'VALIDATION_FAILED',
        bot ? validation.RESEARCH_NO_AI_ONLY_BOT : validation.RESEARCH_NO_AI_ONLY,
      );
    }
  }
  if (scope === 'APPS' && selectsNothing(sources) && attachedUploadIds.length === 0) {
    throw new ChatRefusal('VALIDATION_FAILED', validation.SELECT_SOURCES);
  }

  let topic: Topic | null = null;
  let newTopicId: string | null = null;
  if (query.conversation_id) {
    const loaded = await loadTopic(store.db, viewer, query.conversation_id);
    if (loaded) {
      // Posting is editing (server/policies/topics); a topic the asker cannot even see stays unknown to them.
      if (!canViewTopic(loaded.topic, loaded.relation))
        throw new ChatRefusal('NOT_FOUND', topicMessages.NOT_FOUND);
      if (!canEditTopic(loaded.topic, loaded.relation)) {
        throw new ChatRefusal('FORBIDDEN', topicMessages.EDIT_NOT_ALLOWED);
      }
      topic = loaded.topic;
    } else if (query.isNewTopic) {
      // The client chose the new topic's id. Ids are global, so it must not be another org's topic either.
      const [taken] = await store.db
        .select({ id: topics.id })
        .from(topics)
        .where(eq(topics.id, query.conversation_id))
        .limit(1);
      if (taken) throw new ChatRefusal('NOT_FOUND', topicMessages.NOT_FOUND);
      newTopicId = query.conversation_id;
    } else {
      throw new ChatRefusal('NOT_FOUND', topicMessages.NOT_FOUND);
    }
  }
  if (query.message_id) {
    const [taken] = await store.db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.id, query.message_id))
      .limit(1);
    if (taken) throw new ChatRefusal('VALIDATION_FAILED', 'This message was already sent.');
  }

  const env = deps.llmEnvironment();
  let model: AnswerModel;
  try {
    model = resolveAnswerModel(
      env,
      { flags: org.flags, preferredLlm: org.preferredLlm, subscriptions },
      query.llm_preference,
      [bot?.preferredLlm, user?.preferredLlm],
      now,
    );
  } catch (error) {
    if (error instanceof ModelRefusedError) {
      throw new ChatRefusal(
        error.reason === 'PLAN_REQUIRED' ? 'PLAN_REQUIRED' : 'MODEL_UNAVAILABLE',
        error.message,
      );
    }
    throw error;
  }
  const web = scope === 'WEB' ? webSearchProviderFor(env) : null;
  if (scope === 'WEB' && !web) throw new ChatRefusal('WEB_SEARCH_UNAVAILABLE', WEB_SEARCH_NOT_CONFIGURED);

  const principals = await principalsFor(store.db, viewer.orgId, viewer.email);
  return {
    viewer,
    query,
    org,
    subscriptions,
    flags,
    bot,
    topic,
    newTopicId,
    sources,
    scope,
    model,
    web,
    principals,
    attachedUploadIds,
    now,
  };
}

/** PostgreSQL's unique_violation, wherever the driver put it in the cause chain. */
function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** "3:05 PM" in the asker's time zone. */
function localTime(date: Date, offsetMinutes: number): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const hours = local.getUTCHours();
  const minutes = String(local.getUTCMinutes()).padStart(2, '0');
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/**
 * Checks a QUERY, writes its rows and starts the answer. `listener` gets every message of it. Throws ChatRefusal
 * (nothing written) for a question that may not be asked as it stands.
 */
export async function acceptQuery(
  deps: ChatDeps,
  viewer: Viewer,
  query: QueryMessage,
  listener: Listener,
): Promise<Generation> {
  const acceptedAt = Date.now();
  listener({
    type: 'SET_STAGE',
    stage: 'SENDING_REQUEST',
    ...(query.deepresearch
      ? { label: chatStrings.RESEARCHING, progressBar: PROGRESS_START }
      : { label: chatStrings.UNDERSTANDING_QUESTION }),
  });
  const plan = await prepareQuery(deps, viewer, query);
  const topicId = plan.topic?.id ?? plan.newTopicId;
  if (topicId && !deps.registry.reserve(topicId)) {
    throw new ChatRefusal('BUSY', validation.WAIT_FOR_PREVIOUS_ANSWER);
  }
  let generation: Generation;
  let exchange: Exchange;
  let quota: Awaited<ReturnType<typeof researchQuota>> | null = null;
  try {
    if (query.deepresearch) quota = await researchQuota(deps.store.db, viewer.orgId, viewer.userId, plan.now);
    try {
      exchange = await createExchange(deps.store.db, {
        orgId: viewer.orgId,
        userId: viewer.userId,
        topic: plan.topic,
        newTopicId: plan.newTopicId,
        queryId: query.message_id ?? null,
        question: query.query,
        botId: plan.bot?.id ?? null,
        deepresearch: query.deepresearch,
        llm: plan.model.id,
        attachedUploadIds: query.uploaded_conversation_file_ids,
        rateLimited: quota !== null && !quota.allowed,
        now: plan.now,
        liveSince: new Date(plan.now.getTime() - deps.settings.staleAfterMs),
      });
    } catch (error) {
      // another instance is answering in this topic
      if (error instanceof TopicBusyError) throw new ChatRefusal('BUSY', validation.WAIT_FOR_PREVIOUS_ANSWER);
      // Two sockets raced to the same client-chosen id: the loser is told, nothing half-written stays.
      if (isUniqueViolation(error)) {
        throw new ChatRefusal('VALIDATION_FAILED', 'This message was already sent.');
      }
      throw error;
    }
    generation = new Generation(
      {
        answerId: exchange.answer.id,
        answerRowId: exchange.answer.rowId,
        queryId: exchange.query.id,
        queryRowId: exchange.query.rowId,
        topicId: exchange.topic.id,
        orgId: viewer.orgId,
        userId: viewer.userId,
      },
      query.deepresearch,
      deps.settings.stageRepeatMs,
    );
    generation.stages.push({ stage: 'SENDING_REQUEST', at_ms: Date.now() - acceptedAt });
    deps.registry.add(generation);
  } finally {
    if (topicId) deps.registry.release(topicId);
  }
  generation.listen(listener);
  generation.emit({
    type: 'QUERY_ACCEPTED',
    conversation_id: exchange.topic.id,
    message_id: exchange.query.id,
    isNewTopic: exchange.isNewTopic,
  });
  generation.emit({
    type: 'ROW_ID',
    conversation_id: exchange.topic.id,
    row_id: exchange.answer.rowId,
    message_id: exchange.answer.id,
    query_row_id: exchange.query.rowId,
    query_message_id: exchange.query.id,
  });
  const work =
    quota && !quota.allowed
      ? refuseRateLimited(deps, plan, exchange, generation, quota)
      : runAnswer(deps, plan, exchange, generation);
  // Both save their own failures; this only keeps a store outage from becoming an unhandled rejection.
  generation.settled = work.catch((error: unknown) => {
    deps.log.error({ err: error, messageId: generation.ids.answerId }, 'answer could not be saved');
    finish(deps, generation);
  });
  return generation;
}

async function refuseRateLimited(
  deps: ChatDeps,
  plan: Plan,
  exchange: Exchange,
  generation: Generation,
  quota: { limit: number; resetAt: Date },
): Promise<void> {
  try {
    generation.emit({
      type: 'RATE_LIMIT_REACHED',
      limit: quota.limit,
      reset_at: quota.resetAt.toISOString(),
      message_id: exchange.answer.id,
    });
    await finalizeAnswer(deps.store.db, idsOf(generation), {
      status: 'FAILED',
      messageText: chatStrings.researchLimit(
        localTime(quota.resetAt, plan.query.tz_offset ?? 0),
        quota.limit,
      ),
      extraData: { staticAnswerType: 'rate_limited' },
      progressBar: null,
    });
    emitSaved(generation, 'FAILED');
  } finally {
    finish(deps, generation);
  }
}

// ---------------------------------------------------------------------------------------------
// Making the answer
// ---------------------------------------------------------------------------------------------

function idsOf(generation: Generation) {
  return {
    orgId: generation.ids.orgId,
    answerId: generation.ids.answerId,
    queryId: generation.ids.queryId,
    topicId: generation.ids.topicId,
  };
}

function emitSaved(generation: Generation, status: 'SUCCESS' | 'FAILED' | 'CANCELLED'): void {
  generation.emit({
    type: 'ANSWER_SAVED',
    conversation_id: generation.ids.topicId,
    message_id: generation.ids.answerId,
    status,
  });
}

function finish(deps: ChatDeps, generation: Generation): void {
  generation.finish();
  deps.registry.remove(generation);
}

const NO_SOURCES: QuerySources = {
  is_base_llm: false,
  is_web: false,
  skills: { search_all: false, filters: [] },
  files: { search_all: false, filters: [] },
  answers: { search_all: false, filters: [] },
};

/** Retrieval for one search of the question (one hop in research), in the plan's scope, with the asker's ACL. */
async function gather(
  deps: ChatDeps,
  plan: Plan,
  generation: Generation,
  q: string,
  limit: number,
): Promise<Passage[]> {
  const fromApps = (sources: QuerySources, attached: readonly string[]) =>
    retrieveFromApps(deps.store, {
      orgId: plan.viewer.orgId,
      principals: plan.principals,
      q,
      sources,
      attachedUploadIds: attached,
      limit,
      signal: generation.signal,
    });
  if (plan.scope === 'APPS') return fromApps(plan.sources, plan.attachedUploadIds);
  const attached =
    plan.attachedUploadIds.length > 0 ? await fromApps(NO_SOURCES, plan.attachedUploadIds) : [];
  if (plan.scope === 'AI_ONLY' || !plan.web) return attached;
  let results;
  try {
    results = await plan.web.search(q, { limit, signal: generation.signal });
  } catch (error) {
    if (error instanceof WebSearchError) throw new GenerationError(WEB_SEARCH_FAILED, error);
    throw error;
  }
  const pages = results.map(webPassage);
  if (pages.length > 0) {
    generation.emit({
      type: 'WEB_VIEW_URLS',
      urls: pages.map((page) => ({ url: page.url!, title: page.title })),
    });
  }
  return [...attached, ...pages];
}

/** A failure whose message the asker should see instead of the generic one. */
class GenerationError extends Error {
  override name = 'GenerationError';
  constructor(
    readonly userMessage: string,
    override readonly cause?: unknown,
  ) {
    super(userMessage);
  }
}

async function* extractivePieces(pieces: readonly string[], signal: AbortSignal): AsyncGenerator<string> {
  for (const piece of pieces) {
    if (signal.aborted) return;
    yield piece;
    // let a STOP_GENERATION between pieces be seen, as it would be between a model's chunks
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function summaryOf(passages: readonly Passage[]): AllReferencesSummary {
  const counts = countByApp(passages);
  return { app_references_count: counts, app_names: counts.map((count) => count.appName) };
}

async function runAnswer(
  deps: ChatDeps,
  plan: Plan,
  exchange: Exchange,
  generation: Generation,
): Promise<void> {
  const writer = new AnswerWriter(
    deps.store.db,
    { orgId: plan.viewer.orgId, answerId: generation.ids.answerId },
    deps.settings.writeIntervalMs,
    deps.settings.keepaliveMs,
    deps.log,
  );
  const question = plan.query.query;
  let passages: Passage[] = [];
  let renumberer: CitationRenumberer | null = null;
  const sideCalls = new AbortController();
  const abortSideCalls = () => sideCalls.abort();
  generation.signal.addEventListener('abort', abortSideCalls, { once: true });
  try {
    // GATHERING_DATA
    if (generation.deepresearch) {
      generation.setStage('GATHERING_DATA', { progressBar: PROGRESS_START });
      passages = await researchPassages(
        generation,
        plan.model,
        question,
        (q, limit) => gather(deps, plan, generation, q, limit),
        (progress) => writer.progressBar(progress),
      );
    } else {
      generation.setStage('GATHERING_DATA');
      passages = await gather(deps, plan, generation, question, ANSWER_PASSAGES);
    }
    generation.signal.throwIfAborted();
    await recordAnswerSources(
      deps.store.db,
      { orgId: plan.viewer.orgId, answerId: generation.ids.answerId },
      passages,
    );
    const skills = countByApp(passages);
    for (const skill of skills) generation.emit({ type: 'SKILL_RETRIEVED', ...skill });
    const webPages = passages.filter((passage) => passage.source === 'web');
    // saved with the answer too, so the pages and their summary are still there after a reload
    const webExtra: Pick<MessageExtraData, 'webViewUrls' | 'allWebViewUrlsSummary'> = {};
    if (webPages.length > 0) {
      webExtra.webViewUrls = webPages.map((page) => ({ url: page.url ?? '', title: page.title }));
    }
    if (plan.scope === 'WEB') {
      webExtra.allWebViewUrlsSummary = {
        count: webPages.length,
        domains: [...new Set(webPages.map((page) => domainOf(page.url ?? '')))],
      };
      generation.emit({ type: 'ALL_WEB_VIEW_URLS_SUMMARY', ...webExtra.allWebViewUrlsSummary });
    }

    // BUILDING_PROMPT
    generation.setStage('BUILDING_PROMPT', generation.deepresearch ? { progressBar: PROGRESS_WRITING } : {});
    const history = await loadHistory(
      deps.store.db,
      plan.viewer.orgId,
      exchange.topic.id,
      exchange.query.rowId,
      HISTORY_MESSAGES,
    );
    const promptInput: PromptInput = {
      question,
      scope: plan.scope === 'AI_ONLY' && passages.length > 0 ? 'APPS' : plan.scope,
      passages,
      orgName: plan.org.name,
      orgInstructions: planAllows(plan.subscriptions, Feature.orgWideInstructions, plan.now)
        ? plan.org.customInstructions
        : null,
      disclaimer: planAllows(plan.subscriptions, Feature.customDisclaimer, plan.now)
        ? plan.org.disclaimer
        : null,
      botName: plan.bot?.botName ?? null,
      botInstructions: plan.bot?.customInstructions ?? null,
      history,
      now: plan.now,
      tzOffsetMinutes: plan.query.tz_offset ?? 0,
      deepresearch: generation.deepresearch,
    };
    const suggestions: Promise<Suggestions | null> =
      plan.model.kind === 'generative'
        ? suggestWithModel(plan.model, question, sideCalls.signal).catch(() => null)
        : Promise.resolve(null);

    // STREAMING_ANSWER
    generation.setStage('STREAMING_ANSWER');
    generation.streaming = true;
    renumberer = new CitationRenumberer(passages.length);
    const pieces =
      plan.model.kind === 'generative'
        ? streamModelText({
            model: plan.model,
            system: buildSystemPrompt(promptInput),
            messages: buildMessages(promptInput),
            signal: generation.signal,
          })
        : extractivePieces(
            extractiveAnswer(question, passages, promptInput.scope === 'AI_ONLY' ? 'ai-only' : 'sources'),
            generation.signal,
          );
    for await (const piece of pieces) {
      const text = renumberer.push(piece);
      if (text) {
        generation.emit({ type: 'CHUNK', text });
        writer.text(generation.text);
      }
    }
    const tail = renumberer.flush();
    if (tail) generation.emit({ type: 'CHUNK', text: tail });
    if (generation.abortReason) {
      await finishStopped(deps, generation, writer, passages, renumberer);
      return;
    }

    const cited = renumberer.cited();
    const referenced =
      cited.length > 0
        ? cited.map((n) => passages[n - 1]!)
        : plan.scope === 'AI_ONLY'
          ? []
          : passages.slice(0, FALLBACK_REFERENCES);
    const references: Reference[] = referenced.map(referenceOf);
    const summary = summaryOf(passages);
    const { title, related } = completeSuggestions(await suggestions, question, passages);
    generation.emit({ type: 'RELATED_SEARCHES', relatedSearches: related });
    const topicTitle = exchange.topic.topicTitle || title;
    if (!exchange.topic.topicTitle) {
      generation.emit({ type: 'TOPIC_TITLE', conversation_id: exchange.topic.id, topic_title: topicTitle });
    }
    const debugLogs: DebugLogs = {
      stages: generation.stages,
      execution_time: Date.now() - generation.startedAt,
      // the passage's rank, not its score: a score's idf counts documents of the org the reader may not read
      doc_data: passages.map((passage, i) => ({
        id: passage.id,
        title: passage.title,
        source: passage.source,
        score: i + 1,
      })),
    };
    if (mayReadDebugLogs(plan.viewer, plan.flags)) generation.emit({ type: 'DEBUG_LOGS', debugLogs });
    await writer.close();
    const skillRetrieved: SkillRetrieved[] = skills;
    await finalizeAnswer(deps.store.db, idsOf(generation), {
      status: 'SUCCESS',
      messageText: generation.text,
      references,
      allReferencesSummary: summary,
      relatedSearches: related,
      debugLogs,
      skillRetrieved,
      extraData: { llm: plan.model.id, ...webExtra },
      progressBar: generation.deepresearch ? PROGRESS_DONE : null,
      topicTitle: exchange.topic.topicTitle ? null : topicTitle,
    });
    generation.emit({
      type: 'ANSWER_COMPLETE',
      conversation_id: exchange.topic.id,
      message_id: generation.ids.answerId,
      row_id: generation.ids.answerRowId,
      status: 'SUCCESS',
      messageText: generation.text,
      references,
      allReferencesSummary: summary,
      relatedSearches: related,
      skillRetrieved,
      topic_title: topicTitle,
      llm: plan.model.id,
      deepresearch: generation.deepresearch,
    });
    emitSaved(generation, 'SUCCESS');
  } catch (error) {
    if (generation.abortReason === 'stopped') {
      await finishStopped(deps, generation, writer, passages, renumberer);
    } else {
      await finishFailed(deps, generation, writer, error);
    }
  } finally {
    sideCalls.abort();
    generation.signal.removeEventListener('abort', abortSideCalls);
    await writer.close();
    finish(deps, generation);
  }
}

/** A stopped answer: its partial text if any was streamed (spec: finalised as CANCELLED), else the static one. */
function stoppedAnswer(
  partialText: string,
  references: Reference[],
  summary: AllReferencesSummary | null = null,
): FinalAnswer {
  if (partialText.trim() === '') {
    return {
      status: 'CANCELLED',
      messageText: chatStrings.STOPPED,
      extraData: { staticAnswerType: 'stopped' },
    };
  }
  return { status: 'CANCELLED', messageText: partialText, references, allReferencesSummary: summary };
}

async function finishStopped(
  deps: ChatDeps,
  generation: Generation,
  writer: AnswerWriter,
  passages: readonly Passage[],
  renumberer: CitationRenumberer | null,
): Promise<void> {
  await writer.close();
  if (generation.abortReason === 'shutdown') {
    await finishFailed(deps, generation, writer, new Error('the server shut down'));
    return;
  }
  const final = stoppedAnswer(
    generation.streaming ? generation.text : '',
    (renumberer?.cited() ?? []).map((n) => referenceOf(passages[n - 1]!)),
    summaryOf(passages),
  );
  try {
    await finalizeAnswer(deps.store.db, idsOf(generation), final);
    emitSaved(generation, 'CANCELLED');
  } catch (error) {
    deps.log.error({ err: error, messageId: generation.ids.answerId }, 'saving a stopped answer failed');
  }
}

async function finishFailed(
  deps: ChatDeps,
  generation: Generation,
  writer: AnswerWriter,
  error: unknown,
): Promise<void> {
  await writer.close();
  deps.log.warn({ err: error, messageId: generation.ids.answerId }, 'answer generation failed');
  try {
    await finalizeAnswer(deps.store.db, idsOf(generation), {
      status: 'FAILED',
      messageText: chatStrings.GENERATION_FAILED,
      extraData: { staticAnswerType: 'failed' },
    });
  } catch (saveError) {
    deps.log.error({ err: saveError, messageId: generation.ids.answerId }, 'saving a failed answer failed');
  }
  generation.emit({
    type: 'ERROR',
    code: 'GENERATION_FAILED',
    message: error instanceof GenerationError ? error.userMessage : chatStrings.GENERATION_FAILED,
    message_id: generation.ids.answerId,
  });
  emitSaved(generation, 'FAILED');
}

// ---------------------------------------------------------------------------------------------
// Stop and reconnect
// ---------------------------------------------------------------------------------------------

/** STOP_GENERATION: only the asker may stop their answer. Answers the generation stopped, or null. */
export function stopGeneration(
  deps: ChatDeps,
  viewer: Viewer,
  generation: Generation | undefined,
): Generation | null {
  if (!generation || generation.finished || generation.ids.userId !== viewer.userId) return null;
  if (generation.ids.orgId !== viewer.orgId) return null;
  generation.abort('stopped');
  return generation;
}

/**
 * STOP_GENERATION for an answer (or its question) that may be written by another `scout serve` instance on the same
 * store. The request is recorded on the answer's row, where the writing instance's watchStopRequests finds it within
 * stopPollMs: polling the store works the same on PGlite and a PostgreSQL server, needs no connection held open for
 * LISTEN, and costs one primary-key query per interval per instance with answers in progress. An answer whose
 * writer died (not updated for staleAfterMs) is finalised here. Only the asker may stop it. Answers whether there
 * was an answer to stop.
 */
export async function requestStop(deps: ChatDeps, viewer: Viewer, messageId: string): Promise<boolean> {
  const { db } = deps.store;
  const found = await findMessage(db, viewer.orgId, messageId);
  const answer = found?.sender === 'USER' ? await findAnswerTo(db, viewer.orgId, found.id) : found;
  if (!answer || answer.status !== 'PENDING' || !answer.replyToId) return false;
  const live = deps.registry.find(answer.id);
  if (live) return stopGeneration(deps, viewer, live) !== null;
  const query = await findMessage(db, viewer.orgId, answer.replyToId);
  if (query?.authorId !== viewer.userId) return false;
  if (Date.now() - answer.updatedAt.getTime() < deps.settings.staleAfterMs) {
    return recordStopRequest(db, viewer.orgId, answer.id);
  }
  return finalizeAnswer(
    db,
    { orgId: answer.orgId, answerId: answer.id, queryId: answer.replyToId, topicId: answer.topicId },
    stoppedAnswer(answer.messageText, []),
  );
}

/** Aborts this process's answers that another instance was asked to stop (requestStop). Returns the stopper. */
export function watchStopRequests(deps: ChatDeps): () => void {
  let checking = false;
  const check = async () => {
    const live = deps.registry.all();
    if (checking || live.length === 0) return;
    checking = true;
    try {
      const stopped = await stopRequestedAnswers(
        deps.store.db,
        live.map((generation) => ({ orgId: generation.ids.orgId, answerId: generation.ids.answerId })),
      );
      for (const generation of live) if (stopped.has(generation.ids.answerId)) generation.abort('stopped');
    } catch (error) {
      deps.log.warn({ err: error }, 'reading stop requests failed');
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), deps.settings.stopPollMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The messages that replay a saved answer: its text as one CHUNK (unless already sent), then how it ended. */
async function replaySaved(deps: ChatDeps, answer: Message, send: Listener, textSent = ''): Promise<void> {
  const topic = await findTopic(deps.store.db, answer.orgId, answer.topicId);
  const rest = answer.messageText.startsWith(textSent) ? answer.messageText.slice(textSent.length) : '';
  if (rest && answer.status !== 'FAILED') {
    // the client ignores chunks until streaming has started (spec)
    if (!textSent) {
      send({
        type: 'SET_STAGE',
        stage: 'STREAMING_ANSWER',
        label: stageLabel('STREAMING_ANSWER', answer.deepresearch),
      });
    }
    send({ type: 'CHUNK', text: rest });
  }
  if (answer.status === 'SUCCESS') {
    send({
      type: 'ANSWER_COMPLETE',
      conversation_id: answer.topicId,
      message_id: answer.id,
      row_id: answer.rowId,
      status: 'SUCCESS',
      messageText: answer.messageText,
      references: answer.references as unknown as Reference[],
      allReferencesSummary: (answer.allReferencesSummary as AllReferencesSummary | null) ?? {
        app_references_count: [],
        app_names: [],
      },
      relatedSearches: answer.relatedSearches.filter((value): value is string => typeof value === 'string'),
      skillRetrieved: (answer.skillRetrieved as SkillRetrieved[] | null) ?? [],
      topic_title: topic?.topicTitle ?? '',
      llm: answer.llm ?? 'extractive',
      deepresearch: answer.deepresearch,
    });
  } else if (answer.status === 'FAILED') {
    send({
      type: 'ERROR',
      code: 'GENERATION_FAILED',
      message: chatStrings.GENERATION_FAILED,
      message_id: answer.id,
    });
  }
  send({
    type: 'ANSWER_SAVED',
    conversation_id: answer.topicId,
    message_id: answer.id,
    status: answer.status,
  });
}

/**
 * What a RECONNECT shows its viewer of an answer, live or saved: answerView decides, from the documents the answer
 * was built from (recorded before any text or count is said), whether its text, counts and suggestions reach this
 * viewer; if not, one CHUNK says it is hidden and ANSWER_COMPLETE carries the viewer's view. Messages are passed on
 * in order.
 */
function viewerListener(deps: ChatDeps, viewer: Viewer, answerId: string, send: Listener): Listener {
  const { db } = deps.store;
  const viewOf = async () => {
    const row = await findMessage(db, viewer.orgId, answerId);
    if (!row) return null;
    const reader = { orgId: viewer.orgId, principals: await principalsFor(db, viewer.orgId, viewer.email) };
    return answerView(row, await readableDocuments(db, reader, answerSources(row)));
  };
  let withheld: Promise<boolean> | null = null;
  // the asker's debug logs reach another viewer only if that viewer may read debug logs too
  let showsDebugLogs: Promise<boolean> | null = null;
  let noticeSent = false;
  let chain = Promise.resolve();
  const pass = async (message: ServerMessage) => {
    if (message.type === 'DEBUG_LOGS' && !(await (showsDebugLogs ??= viewerReadsDebugLogs(db, viewer))))
      return;
    switch (message.type) {
      case 'CHUNK':
      case 'SKILL_RETRIEVED':
      case 'RELATED_SEARCHES':
      case 'DEBUG_LOGS':
        withheld ??= viewOf().then((view) => view?.withheld ?? true);
        if (!(await withheld)) {
          send(message);
        } else if (message.type === 'CHUNK' && !noticeSent) {
          noticeSent = true;
          send({ type: 'CHUNK', text: chatStrings.ANSWER_WITHHELD });
        }
        return;
      case 'ANSWER_COMPLETE': {
        const view = await viewOf();
        if (!view) return;
        send({
          ...message,
          messageText: view.messageText,
          references: view.references,
          allReferencesSummary: view.allReferencesSummary ?? { app_references_count: [], app_names: [] },
          relatedSearches: view.relatedSearches,
          skillRetrieved: view.skillRetrieved ?? [],
        });
        return;
      }
      default:
        send(message);
    }
  };
  return (message) => {
    chain = chain
      .then(() => pass(message))
      .catch((error: unknown) =>
        deps.log.warn({ err: error }, 'showing an answer to a reconnected reader failed'),
      );
  };
}

/** Whoever may read the topic may follow its answers; to anyone else the message does not exist. */
async function requireFollow(deps: ChatDeps, viewer: Viewer, topicId: string): Promise<void> {
  const loaded = await loadTopic(deps.store.db, viewer, topicId);
  if (!loaded || !canViewTopic(loaded.topic, loaded.relation)) {
    throw new ChatRefusal('NOT_FOUND', topicMessages.MESSAGE_NOT_FOUND);
  }
}

export type ReconnectResult =
  /** Attached to an answer being written in this process, through `listener` (detach it when the socket goes). */
  | { kind: 'live'; generation: Generation; listener: Listener }
  /** The saved answer was sent. */
  | { kind: 'saved' }
  /** Following the answer `answerId` another process writes; call `stop` when the socket goes. */
  | { kind: 'following'; answerId: string; stop: () => void };

/**
 * RECONNECT {message_id} (the user message or its answer): re-attach to the live answer, send the saved one, or, if
 * the process writing it died (PENDING, not updated for staleAfterMs), finalise it FAILED and say so.
 */
export async function reconnect(
  deps: ChatDeps,
  viewer: Viewer,
  message: ReconnectMessage,
  send: Listener,
): Promise<ReconnectResult> {
  const live = deps.registry.find(message.message_id);
  if (live && !live.finished && live.ids.orgId === viewer.orgId) {
    await requireFollow(deps, viewer, live.ids.topicId);
    const listener = viewerListener(deps, viewer, live.ids.answerId, send);
    live.attach(listener);
    return { kind: 'live', generation: live, listener };
  }
  const found = await findMessage(deps.store.db, viewer.orgId, message.message_id);
  if (!found) throw new ChatRefusal('NOT_FOUND', topicMessages.MESSAGE_NOT_FOUND);
  await requireFollow(deps, viewer, found.topicId);
  const answer = found.sender === 'USER' ? await findAnswerTo(deps.store.db, viewer.orgId, found.id) : found;
  if (!answer) throw new ChatRefusal('NOT_FOUND', 'This message has no answer.');
  const listener = viewerListener(deps, viewer, answer.id, send);
  // It may have finished between the registry lookup and the read.
  const again = deps.registry.find(answer.id);
  if (again && !again.finished) {
    again.attach(listener);
    return { kind: 'live', generation: again, listener };
  }
  if (answer.status !== 'PENDING') {
    await replaySaved(deps, answer, listener);
    return { kind: 'saved' };
  }
  if (await finalizeIfStale(deps, answer)) {
    const saved = await findMessage(deps.store.db, viewer.orgId, answer.id);
    await replaySaved(deps, saved ?? answer, listener);
    return { kind: 'saved' };
  }
  return { kind: 'following', answerId: answer.id, stop: followStored(deps, answer, listener) };
}

async function finalizeIfStale(deps: ChatDeps, answer: Message): Promise<boolean> {
  if (Date.now() - answer.updatedAt.getTime() < deps.settings.staleAfterMs) return false;
  await failOrphanAnswer(deps.store.db, answer);
  return true;
}

/**
 * Follows an answer written by another process through its row: new text as CHUNKs (after STREAMING_ANSWER, as the
 * client ignores chunks before it), the stage again when nothing changed for stageRepeatMs, then how it ended.
 */
function followStored(deps: ChatDeps, answer: Message, send: Listener): () => void {
  let stopped = false;
  let sent = '';
  let stage: ChatStage = 'RECONNECTING';
  let lastSentAt = 0;
  const say = (message: ServerMessage) => {
    lastSentAt = Date.now();
    send(message);
  };
  const sayStage = (row: Message) =>
    say({
      type: 'SET_STAGE',
      stage,
      label: stageLabel(stage, row.deepresearch),
      ...(row.deepresearch && row.progressBar !== null ? { progressBar: row.progressBar } : {}),
    });
  const catchUp = (row: Message) => {
    if (row.messageText.startsWith(sent) && row.messageText.length > sent.length) {
      if (stage !== 'STREAMING_ANSWER') {
        stage = 'STREAMING_ANSWER';
        sayStage(row);
      }
      say({ type: 'CHUNK', text: row.messageText.slice(sent.length) });
      sent = row.messageText;
    } else if (Date.now() - lastSentAt >= deps.settings.stageRepeatMs) {
      sayStage(row);
    }
  };
  sayStage(answer);
  catchUp(answer);
  const poll = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, deps.settings.followPollMs));
      if (stopped) return;
      const row = await findMessage(deps.store.db, answer.orgId, answer.id);
      if (!row) return;
      if (row.status === 'PENDING') {
        catchUp(row);
        if (await finalizeIfStale(deps, row)) {
          const saved = await findMessage(deps.store.db, answer.orgId, answer.id);
          if (saved) await replaySaved(deps, saved, send, sent);
          return;
        }
        continue;
      }
      await replaySaved(deps, row, send, sent);
      return;
    }
  };
  poll().catch((error: unknown) => deps.log.warn({ err: error }, 'following a stored answer failed'));
  return () => {
    stopped = true;
  };
}
