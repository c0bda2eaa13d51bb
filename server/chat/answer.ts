/**
 * Making the answer (DESIGN §6) once its question is accepted: GATHERING_DATA → BUILDING_PROMPT → STREAMING_ANSWER →
 * ANSWER_COMPLETE, saved as it streams, finalised as SUCCESS, FAILED or CANCELLED whether or not a socket listens.
 */
import { type QueryMessage, type QuerySources, type SearchScope } from '../../common/api/chat';
import type {
  AllReferencesSummary,
  DebugLogs,
  MessageExtraData,
  Reference,
  SkillRetrieved,
} from '../../common/api/messages';
import { type Flags } from '../../common/flags';
import { Feature, planAllows } from '../../common/plans';
import { chat as chatStrings } from '../../common/strings';
import type { Viewer } from '../context';
import { type Bot, type Org, type Subscription, type Topic } from '../db/schema';
import { extractiveAnswer, wordsToStem } from '../llm/extractive';
import { lexemesOfWords } from '../search/lexemes';
import { streamModelText } from '../llm/generate';
import { type AnswerModel } from '../llm/registry';
import { mayReadDebugLogs } from '../policies/debug-logs';
import { CitationRenumberer } from './citations';
import type { Generation } from './generations';
import { referenceOf, type Passage } from './passages';
import {
  buildMessages,
  buildSystemPrompt,
  sourceTokenBudget,
  type PromptInput,
  withinBudget,
} from './prompt';
import { completeSuggestions, suggestWithModel, type Suggestions } from './related';
import {
  PROGRESS_DONE,
  PROGRESS_START,
  PROGRESS_WRITING,
  RESEARCH_PASSAGES_MAX,
  researchPassages,
} from './research';
import { countByApp, retrieveFromApps } from './retrieval';
import { rewriteQuestion } from './rewrite';
import {
  AnswerWriter,
  finalizeAnswer,
  loadHistory,
  recordAnswerSources,
  type Exchange,
  type FinalAnswer,
} from './rows';
import { type ChatDeps } from './settings';
import {
  domainOf,
  WEB_SEARCH_FAILED,
  webPassage,
  WebSearchError,
  type WebSearchProvider,
} from './web-search';

/** Documents whose passages the model may be given for an ordinary answer (within its token budget). */
export const ANSWER_PASSAGES = 8;
/** References shown when the model cited none. */
export const FALLBACK_REFERENCES = 3;
/** Earlier messages of the topic given to the model. */
export const HISTORY_MESSAGES = 6;

export type Plan = {
  viewer: Viewer;
  query: QueryMessage;
  org: Org;
  subscriptions: Subscription[];
  flags: Flags;
  bot: Bot | null;
  /** The asker's personal background (/my-ai-controls), for their own prompts only. */
  personalBackground: string | null;
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

export function idsOf(generation: Generation) {
  return {
    orgId: generation.ids.orgId,
    answerId: generation.ids.answerId,
    queryId: generation.ids.queryId,
    topicId: generation.ids.topicId,
  };
}

export function emitSaved(generation: Generation, status: 'SUCCESS' | 'FAILED' | 'CANCELLED'): void {
  generation.emit({
    type: 'ANSWER_SAVED',
    conversation_id: generation.ids.topicId,
    message_id: generation.ids.answerId,
    status,
  });
}

export function finish(deps: ChatDeps, generation: Generation): void {
  generation.finish();
  deps.registry.remove(generation);
}

export const NO_SOURCES: QuerySources = {
  is_base_llm: false,
  is_web: false,
  skills: { search_all: false, filters: [] },
  files: { search_all: false, filters: [] },
  answers: { search_all: false, filters: [] },
};

/**
 * Retrieval for one search of the question (one hop in research), in the plan's scope, with the asker's ACL: at
 * most `limit` documents, their passages within the model's budget for sources. `rewrites` (the model's searches for
 * the question) are fused with it over the selected apps.
 */
export async function gather(
  deps: ChatDeps,
  plan: Plan,
  generation: Generation,
  q: string,
  limit: number,
  budgetTokens: number,
  rewrites?: Promise<readonly string[]>,
): Promise<Passage[]> {
  const fromApps = (sources: QuerySources, attached: readonly string[], more?: Promise<readonly string[]>) =>
    retrieveFromApps(deps.store, {
      orgId: plan.viewer.orgId,
      principals: plan.principals,
      q,
      sources,
      attachedUploadIds: attached,
      limit,
      budgetTokens,
      signal: generation.signal,
      rewrites: more,
    });
  if (plan.scope === 'APPS') return fromApps(plan.sources, plan.attachedUploadIds, rewrites);
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
export class GenerationError extends Error {
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

export function summaryOf(passages: readonly Passage[]): AllReferencesSummary {
  const counts = countByApp(passages);
  return { app_references_count: counts, app_names: counts.map((count) => count.appName) };
}

export async function runAnswer(
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
    const history = await loadHistory(
      deps.store.db,
      { orgId: plan.viewer.orgId, principals: plan.principals },
      exchange.topic.id,
      exchange.query.rowId,
      HISTORY_MESSAGES,
    );
    const budget = sourceTokenBudget(plan.model);
    if (generation.deepresearch) {
      generation.setStage('GATHERING_DATA', { progressBar: PROGRESS_START });
      // research keeps RESEARCH_PASSAGES_MAX documents found by hops of `limit`: each hop gets its documents'
      // share of the budget, and what the hops found together is cut back to it
      passages = withinBudget(
        await researchPassages(
          generation,
          plan.model,
          question,
          (q, limit) =>
            gather(deps, plan, generation, q, limit, Math.floor((budget * limit) / RESEARCH_PASSAGES_MAX)),
          (progress) => writer.progressBar(progress),
        ),
        budget,
      );
    } else {
      generation.setStage('GATHERING_DATA');
      // the model rewrites the question while its own searches run; research plans its searches itself
      const rewrites =
        plan.scope === 'APPS'
          ? rewriteQuestion(plan.model, question, history, {
              signal: sideCalls.signal,
              timeoutMs: deps.settings.rewriteTimeoutMs,
            })
          : undefined;
      passages = await gather(deps, plan, generation, question, ANSWER_PASSAGES, budget, rewrites);
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
      personalBackground: plan.personalBackground,
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
            extractiveAnswer(
              question,
              passages,
              promptInput.scope === 'AI_ONLY' ? 'ai-only' : 'sources',
              await lexemesOfWords(deps.store.db, wordsToStem(question, passages)),
            ),
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
    if (generation.deepresearch) await notifyResearch(deps, generation, true);
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

/** Research takes a while: its asker hears when it is ready or could not be finished (notify-research). */
async function notifyResearch(deps: ChatDeps, generation: Generation, success: boolean): Promise<void> {
  await deps.notifier.notify({
    type: 'notify-research',
    orgId: generation.ids.orgId,
    topicId: generation.ids.topicId,
    messageId: generation.ids.answerId,
    recipientIds: [generation.ids.userId],
    success,
  });
}

/** A stopped answer: its partial text if any was streamed (spec: finalised as CANCELLED), else the static one. */
export function stoppedAnswer(
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

export async function finishStopped(
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

export async function finishFailed(
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
  if (generation.deepresearch) await notifyResearch(deps, generation, false);
}
