/**
 * Accepting a question (DESIGN §6): a QUERY is checked (bot, sources, plan, model, quota), its rows written and its
 * answer started (answer.ts). A question that may not be asked as it stands is refused with nothing written.
 */
import { and, eq, isNull } from 'drizzle-orm';
import {
  ALL_APP_SOURCES,
  querySourcesSchema,
  searchScopeOf,
  selectsNothing,
  type QueryMessage,
  type QuerySources,
} from '../../common/api/chat';
import { topicMessages } from '../../common/api/topics';
import { parseFlags } from '../../common/flags';
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
  type Subscription,
  type Topic,
} from '../db/schema';
import type { Store } from '../db/store';
import { ModelRefusedError, resolveAnswerModel, type AnswerModel } from '../llm/registry';
import { managedBotAudience, sharedTopicAudience } from '../notifications/notifier';
import { loadOrg } from '../orgs/load';
import { planRequiredMessage } from '../policies/access';
import { canEditTopic, canViewTopic } from '../policies/topics';
import { publishAnswer } from '../realtime/live-answers';
import { principalsFor } from '../search';
import { loadTopic } from '../topics/access';
import { emitSaved, finish, idsOf, runAnswer, type Plan } from './answer';
import { Generation, type Listener } from './generations';
import { PROGRESS_START, researchQuota } from './research';
import { createExchange, finalizeAnswer, TopicBusyError, type Exchange } from './rows';
import { ChatRefusal, type ChatDeps } from './settings';
import { WEB_SEARCH_NOT_CONFIGURED, webSearchProviderFor } from './web-search';

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
    .select({ preferredLlm: users.preferredLlm, personalBackground: users.personalBackground })
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
    personalBackground: user?.personalBackground ?? null,
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
  // live topics: others with the topic open see the question and the answer as it streams
  if (plan.flags.realtimeMultiplayer) {
    generation.listen(
      publishAnswer(deps.realtime, {
        orgId: viewer.orgId,
        topicId: exchange.topic.id,
        answerId: exchange.answer.id,
      }),
    );
  }
  generation.emit({
    type: 'QUERY_ACCEPTED',
    conversation_id: exchange.topic.id,
    message_id: exchange.query.id,
    isNewTopic: exchange.isNewTopic,
  });
  notifyOfQuestion(deps, viewer, plan.bot, exchange, query.query).catch((error: unknown) =>
    deps.log.error({ err: error, topicId: exchange.topic.id }, 'question notifications failed'),
  );
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

/**
 * A question to a managed bot tells the bot's admins (notify-bot-admins), and one in a shared topic tells its other
 * members (notify-new-msgs-in-shared-topics); an admin who is also a member hears of it once. The answer never waits
 * on them.
 */
async function notifyOfQuestion(
  deps: ChatDeps,
  viewer: Viewer,
  bot: Bot | null,
  exchange: Exchange,
  question: string,
) {
  const about = {
    orgId: viewer.orgId,
    topicId: exchange.topic.id,
    messageId: exchange.query.id,
    actorId: viewer.userId,
    messageText: question,
  };
  const botAdminIds = bot?.isManaged ? await managedBotAudience(deps.store.db, bot) : [];
  if (botAdminIds.length > 0) {
    await deps.notifier.notify({
      ...about,
      type: 'notify-bot-admins',
      botId: bot?.id,
      recipientIds: botAdminIds,
    });
  }
  if (exchange.topic.isMultiplayer) {
    const members = await sharedTopicAudience(deps.store.db, exchange.topic);
    await deps.notifier.notify({
      ...about,
      type: 'notify-new-msgs-in-shared-topics',
      recipientIds: members.filter((id) => !botAdminIds.includes(id)),
    });
  }
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
