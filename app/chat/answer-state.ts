// What one question and its answer look like while the answer streams (spec asking-questions §4, shell-and-account
// §7.5): the server's messages folded into the two ChatMessages the conversation view shows. Pure, so the rules
// (chunks ignored until streaming starts, the progress rule, how an answer ends) are tested without a socket.
import {
  STAGE_LABELS,
  type ChatStage,
  type ServerMessage,
  type ServerMessageOf,
} from '../../common/api/chat';
import type { ChatMessage, MessageAuthor, MessageFile, StaticAnswerType } from '../../common/api/messages';
import {
  PROGRESS_BAR_CAP,
  PROGRESS_BAR_FIRST_JUMP,
  PROGRESS_BAR_START,
  PROGRESS_BAR_STEP,
} from '../../common/limits';
import { chat as chatStrings } from '../../common/strings';

export type WebPage = ServerMessageOf<'WEB_VIEW_URLS'>['urls'][number];
export type WebSummary = Omit<ServerMessageOf<'ALL_WEB_VIEW_URLS_SUMMARY'>, 'type'>;

export type Exchange = {
  /** The user message's id, chosen here so the question can be reconnected to before the server answers. */
  key: string;
  question: ChatMessage;
  answer: ChatMessage;
  /** The last stage the server named; the server repeats it to keep the socket alive. */
  stage: ChatStage | null;
  /** The stage label shown above the answer while it is pending. */
  stageLabel: string | null;
  progress: number;
  /** Chunks are appended only once the answer has started streaming (STREAMING_ANSWER or RECONNECTING). */
  streaming: boolean;
  /** The server accepted the question and wrote its rows (QUERY_ACCEPTED): a refusal can no longer come. */
  accepted: boolean;
  /** Web mode: the pages read so far (WEB_VIEW_URLS), each once; saved with the answer as extraData.webViewUrls. */
  webPages: readonly WebPage[];
  /** Web mode: how many pages were read, from which sites (ALL_WEB_VIEW_URLS_SUMMARY). */
  webSummary: WebSummary | null;
};

/** The progress rule of non-research answers: 5, then 50, then +15 per stage or skill event, at most 90. */
export function nextProgress(progress: number): number {
  if (progress <= PROGRESS_BAR_START) return PROGRESS_BAR_FIRST_JUMP;
  return Math.min(PROGRESS_BAR_CAP, progress + PROGRESS_BAR_STEP);
}

export function isFinal(exchange: Pick<Exchange, 'answer'>): boolean {
  return exchange.answer.status !== 'PENDING';
}

type NewExchange = {
  key: string;
  answerKey: string;
  query: string;
  conversationId: string | null;
  topicTitle: string;
  author: MessageAuthor;
  deepresearch: boolean;
  /** Files attached to the question. */
  files?: readonly MessageFile[];
  now: Date;
};

function blankMessage(
  id: string,
  sender: ChatMessage['sender'],
  input: NewExchange,
  text: string,
  offsetMs: number,
): ChatMessage {
  const sentAt = new Date(input.now.getTime() + offsetMs).toISOString();
  return {
    row_id: -1,
    message_id: id,
    conversation_id: input.conversationId ?? '',
    conversation_timestamp: input.now.toISOString(),
    topic_title: input.topicTitle,
    topicAccess: { isMultiplayer: false, isOrgWide: false, isPublic: false },
    sender,
    messageText: text,
    messageEncoding: 'PLAIN_TEXT',
    messageType: null,
    tsSentAt: sentAt,
    author: sender === 'USER' ? input.author : null,
    bot_id: null,
    bot_name: null,
    bot_icon: null,
    reply_to_id: sender === 'ASSISTANT' ? input.key : null,
    references: [],
    allReferencesSummary: null,
    relatedSearches: [],
    debugLogs: null,
    files: sender === 'USER' ? [...(input.files ?? [])] : [],
    extraData: {},
    skillRetrieved: null,
    deepresearch: input.deepresearch,
    status: 'PENDING',
    isQueryAccepted: null,
    isPreFinalGeneration: false,
    progressBar: null,
  };
}

/** A question just sent: the user message and an empty pending answer. */
export function newExchange(input: NewExchange): Exchange {
  return {
    key: input.key,
    question: blankMessage(input.key, 'USER', input, input.query, 0),
    answer: blankMessage(input.answerKey, 'ASSISTANT', input, '', 1),
    stage: null,
    stageLabel: input.deepresearch ? chatStrings.RESEARCHING : chatStrings.UNDERSTANDING_QUESTION,
    progress: PROGRESS_BAR_START,
    streaming: false,
    accepted: false,
    webPages: [],
    webSummary: null,
  };
}

/** A pending answer found in the history, to follow again with RECONNECT. */
export function exchangeFor(question: ChatMessage, answer: ChatMessage): Exchange {
  return {
    key: question.message_id,
    question,
    answer: { ...answer, messageText: '' },
    stage: null,
    stageLabel: answer.deepresearch ? chatStrings.RESEARCHING : null,
    progress: answer.progressBar ?? PROGRESS_BAR_START,
    streaming: false,
    accepted: true,
    webPages: [],
    webSummary: null,
  };
}

function withAnswer(exchange: Exchange, changes: Partial<ChatMessage>): Exchange {
  return { ...exchange, answer: { ...exchange.answer, ...changes } };
}

function withConversation(exchange: Exchange, conversationId: string, topicTitle?: string): Exchange {
  const topic = {
    conversation_id: conversationId,
    ...(topicTitle !== undefined ? { topic_title: topicTitle } : {}),
  };
  return {
    ...exchange,
    question: { ...exchange.question, ...topic },
    answer: { ...exchange.answer, ...topic },
  };
}

/** Ends the answer with a fixed text (stopped, failed, rate limited). */
export function withStaticAnswer(
  exchange: Exchange,
  status: 'FAILED' | 'CANCELLED',
  text: string,
  type: StaticAnswerType,
): Exchange {
  return withAnswer(exchange, {
    status,
    messageText: text,
    isPreFinalGeneration: false,
    extraData: { ...exchange.answer.extraData, staticAnswerType: type },
  });
}

/**
 * Stop (spec §4 Stop): an answer already streaming keeps its text as CANCELLED; otherwise the static stopped text.
 * The server saves the same, so the view does not change on reload.
 */
export function stoppedExchange(exchange: Exchange): Exchange {
  if (exchange.streaming && exchange.answer.messageText.trim() !== '') {
    return withAnswer(exchange, { status: 'CANCELLED', isPreFinalGeneration: false });
  }
  return withStaticAnswer(exchange, 'CANCELLED', chatStrings.STOPPED, 'stopped');
}

/**
 * RECONNECT is about to be sent: the server answers with the current stage and the whole text so far as one CHUNK,
 * so the text shown is dropped rather than doubled.
 */
export function awaitingReplay(exchange: Exchange): Exchange {
  if (isFinal(exchange)) return exchange;
  return withAnswer(exchange, { messageText: '' });
}

/** The answer as saved, from `GET /messages/message/{id}` (ANSWER_SAVED before ANSWER_COMPLETE, reconnect failure). */
export function withSavedAnswer(exchange: Exchange, saved: ChatMessage): Exchange {
  return { ...exchange, answer: saved };
}

function formatResetTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/** Folds one server message into the exchange. ANSWER_SAVED and refusals are the stream controller's to act on. */
export function applyServerMessage(exchange: Exchange, message: ServerMessage): Exchange {
  if (isFinal(exchange)) return exchange;
  const research = exchange.answer.deepresearch;
  switch (message.type) {
    case 'SET_STAGE': {
      const startsStreaming = message.stage === 'STREAMING_ANSWER' || message.stage === 'RECONNECTING';
      const label = research
        ? chatStrings.RESEARCHING
        : (message.label ?? STAGE_LABELS[message.stage] ?? exchange.stageLabel);
      // A repeated stage (keep-alive, or the replay after RECONNECT) is not progress.
      const progress = research
        ? (message.progressBar ?? exchange.progress)
        : message.stage === 'RECONNECTING' || message.stage === exchange.stage
          ? exchange.progress
          : nextProgress(exchange.progress);
      const next = {
        ...exchange,
        stage: message.stage,
        stageLabel: label,
        progress,
        streaming: exchange.streaming || startsStreaming,
      };
      // A reconnect replays the whole text written so far as its first chunk.
      return message.stage === 'RECONNECTING' ? withAnswer(next, { messageText: '' }) : next;
    }
    case 'CHUNK':
      if (!exchange.streaming) return exchange;
      return withAnswer(exchange, {
        messageText: exchange.answer.messageText + message.text,
        isPreFinalGeneration: true,
      });
    case 'SKILL_RETRIEVED': {
      const skill = { appName: message.appName, numDocs: message.numDocs };
      const next = withAnswer(exchange, {
        skillRetrieved: [...(exchange.answer.skillRetrieved ?? []), skill],
      });
      return research ? next : { ...next, progress: nextProgress(exchange.progress) };
    }
    case 'RELATED_SEARCHES':
      return withAnswer(exchange, { relatedSearches: message.relatedSearches });
    case 'DEBUG_LOGS':
      return withAnswer(exchange, { debugLogs: message.debugLogs });
    case 'TOPIC_TITLE':
      return withConversation(exchange, message.conversation_id, message.topic_title);
    case 'QUERY_ACCEPTED': {
      const next = withConversation({ ...exchange, accepted: true }, message.conversation_id);
      return { ...next, question: { ...next.question, message_id: message.message_id } };
    }
    case 'ROW_ID': {
      const next = withConversation({ ...exchange, accepted: true }, message.conversation_id);
      return {
        ...next,
        question: { ...next.question, row_id: message.query_row_id, message_id: message.query_message_id },
        answer: {
          ...next.answer,
          row_id: message.row_id,
          message_id: message.message_id,
          reply_to_id: message.query_message_id,
        },
      };
    }
    case 'ANSWER_COMPLETE': {
      const next = withConversation(exchange, message.conversation_id, message.topic_title || undefined);
      return withAnswer(next, {
        status: 'SUCCESS',
        message_id: message.message_id,
        row_id: message.row_id,
        messageText: message.messageText,
        references: message.references,
        allReferencesSummary: message.allReferencesSummary,
        relatedSearches: message.relatedSearches,
        skillRetrieved: message.skillRetrieved,
        isPreFinalGeneration: false,
        extraData: { ...next.answer.extraData, llm: message.llm },
      });
    }
    case 'RATE_LIMIT_REACHED':
      return withStaticAnswer(
        exchange,
        'FAILED',
        chatStrings.researchLimit(formatResetTime(message.reset_at), message.limit),
        'rate_limited',
      );
    case 'ERROR':
      // Only a failure of an accepted answer ends it; a refusal before that removes the question instead.
      if (message.code === 'GENERATION_FAILED' && exchange.accepted) {
        return withStaticAnswer(exchange, 'FAILED', chatStrings.GENERATION_FAILED, 'failed');
      }
      return exchange;
    case 'WEB_VIEW_URLS': {
      const known = new Set(exchange.webPages.map((page) => page.url));
      const added: WebPage[] = [];
      for (const page of message.urls) {
        if (known.has(page.url)) continue;
        known.add(page.url);
        added.push(page);
      }
      return added.length === 0 ? exchange : { ...exchange, webPages: [...exchange.webPages, ...added] };
    }
    case 'ALL_WEB_VIEW_URLS_SUMMARY':
      return { ...exchange, webSummary: { count: message.count, domains: message.domains } };
    case 'ANSWER_SAVED':
      return exchange;
  }
}
