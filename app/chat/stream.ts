// Following one answer over the chat socket (spec asking-questions §4 Stop and Reconnect, §9; shell-and-account
// §7.5, §8 Chat): a lease on the tab's shared socket (connection.ts) per answer, the inactivity time-out, RECONNECT
// up to RECONNECT_MAX_RETRIES times when reconnecting is enabled, then the saved message by id. The controller knows
// nothing of React.
import { ChatCloseCode, type QueryMessageInput, type ServerMessage } from '../../common/api/chat';
import type { ChatMessage } from '../../common/api/messages';
import { messageByIdResponseSchema } from '../../common/api/topics';
import {
  DEEP_RESEARCH_STREAM_INACTIVITY_TIMEOUT_MS,
  RECONNECT_MAX_RETRIES,
  STREAM_INACTIVITY_TIMEOUT_MS,
} from '../../common/limits';
import { chat as chatStrings } from '../../common/strings';
import { apiRequest } from '../api/client';
import { chatLink, type Lease } from './connection';

/** After STOP_GENERATION the socket waits this long for ANSWER_SAVED (to pick up the saved references), then closes. */
const STOP_LINGER_MS = 5_000;

export type FollowStart =
  { type: 'QUERY'; message: Omit<QueryMessageInput, 'type'> } | { type: 'RECONNECT'; messageId: string };

export type FollowOptions = {
  start: FollowStart;
  deepresearch: boolean;
  /** The chatReconnect flag: inactivity time-out, RECONNECT retries, then the saved message. */
  reconnect: boolean;
  /** The question's id, to RECONNECT by before the answer's id is known. */
  questionId(): string;
  /** The answer's id once ROW_ID named it. */
  answerId(): string | null;
  isFinal(): boolean;
  onMessage(message: ServerMessage): void;
  /** RECONNECT is being sent: the server replays the text so far. */
  onReplay(): void;
  /** The answer as saved, read by id. */
  onSaved(message: ChatMessage): void;
  /** The stream broke and the answer cannot be read: show `text` and end the answer as failed. */
  onFailure(text: string): void;
  /** Refused before anything was written (ERROR before QUERY_ACCEPTED). */
  onRefused(message: ServerMessage & { type: 'ERROR' }): void;
  /** The timeout fired: the history should be read again. */
  onTimeout(): void;
};

export type AnswerStream = {
  /** STOP_GENERATION, then the socket closes once the answer is saved (or after STOP_LINGER_MS). */
  stop(): void;
  /** Stop listening without stopping the answer (the view went away for good). */
  detach(): void;
};

export async function fetchSavedMessage(id: string): Promise<ChatMessage> {
  const response = await apiRequest(`messages/message/${encodeURIComponent(id)}`, {
    schema: messageByIdResponseSchema,
  });
  return response.data.message;
}

export function followAnswer(options: FollowOptions): AnswerStream {
  let lease: Lease | null = null;
  let retries = 0;
  let accepted = options.start.type === 'RECONNECT';
  let ended = false;
  let stopping = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeoutMs = options.deepresearch
    ? DEEP_RESEARCH_STREAM_INACTIVITY_TIMEOUT_MS
    : STREAM_INACTIVITY_TIMEOUT_MS;

  const clearTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  /** `release`: the answer is done and the socket serves the next question; `close`: it must not. */
  const end = (how: 'release' | 'close') => {
    ended = true;
    clearTimer();
    if (how === 'release') lease?.release();
    else lease?.close();
  };

  // Spec §9: the inactivity time-out applies when reconnecting is enabled.
  const armTimer = () => {
    clearTimer();
    if (!options.reconnect || stopping) return;
    timer = setTimeout(() => {
      if (ended || options.isFinal()) return;
      end('close');
      options.onFailure(chatStrings.TIMEOUT);
      options.onTimeout();
    }, timeoutMs);
  };

  const readSaved = async () => {
    const id = options.answerId();
    try {
      if (!id) throw new Error('the answer was never named');
      const saved = await fetchSavedMessage(id);
      if (saved.status === 'PENDING') throw new Error('the answer is still pending');
      options.onSaved(saved);
    } catch (error) {
      console.warn('chat: the saved answer could not be read', error);
      if (!options.isFinal()) options.onFailure(chatStrings.STREAMING_ERROR);
    }
  };

  const onMessage = (message: ServerMessage) => {
    if (ended) return;
    armTimer();
    if (message.type === 'QUERY_ACCEPTED' || message.type === 'ROW_ID') accepted = true;
    if (message.type === 'ERROR' && !accepted) {
      end('release');
      options.onRefused(message);
      return;
    }
    if (message.type === 'ERROR' && message.code === 'NOTHING_TO_DO' && stopping) return;
    const wasFinal = options.isFinal();
    options.onMessage(message);
    if (message.type === 'ANSWER_SAVED') {
      end(stopping ? 'close' : 'release');
      // Not finalised by the stream (or stopped here with the text only): the saved row is the answer.
      if (!wasFinal || stopping) void readSaved();
    }
  };

  const onClose = (code: number) => {
    if (ended) return;
    clearTimer();
    if (options.isFinal() && !stopping) {
      ended = true;
      return;
    }
    if (stopping) {
      ended = true;
      return;
    }
    if (code === ChatCloseCode.unauthorized) {
      ended = true;
      options.onFailure(chatStrings.TOKENS_NOT_FOUND);
      return;
    }
    if (!options.reconnect) {
      ended = true;
      options.onFailure(chatStrings.STREAMING_ERROR);
      return;
    }
    if (retries < RECONNECT_MAX_RETRIES && accepted) {
      retries += 1;
      void connect({ type: 'RECONNECT', messageId: options.questionId() });
      return;
    }
    ended = true;
    void readSaved();
  };

  const connect = async (start: FollowStart) => {
    const acquired = await chatLink.acquire({
      onReady: (ready) => {
        if (ended) {
          ready.release();
          return;
        }
        lease = ready;
        armTimer();
        if (start.type === 'QUERY') ready.send({ type: 'QUERY', ...start.message });
        else {
          options.onReplay();
          ready.send({ type: 'RECONNECT', message_id: start.messageId, deepresearch: options.deepresearch });
        }
      },
      onMessage,
      onClose,
    });
    if (!acquired) {
      ended = true;
      options.onFailure(chatStrings.TOKENS_NOT_FOUND);
      return;
    }
    // detached or stopped while the token was read: nothing was sent on it
    if (ended) acquired.release();
    else lease = acquired;
  };

  void connect(options.start);

  return {
    stop() {
      if (ended) return;
      stopping = true;
      clearTimer();
      // the answer's last frames are this socket's alone now; the next question opens another (spec: Stop closes)
      lease?.keep();
      const sent = lease?.send({ type: 'STOP_GENERATION', message_id: options.answerId() }) ?? false;
      if (!sent) {
        end('close');
        return;
      }
      setTimeout(() => {
        if (!ended) end('close');
      }, STOP_LINGER_MS);
    },
    detach() {
      if (!ended) end('close');
    },
  };
}
