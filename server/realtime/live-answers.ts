/**
 * Live shared topics (asking-questions §4 topic access: tagging makes a topic multiplayer): what an answer's
 * generation says to its asker, retold on the topic's channel for everyone else who has the topic open. Only the
 * question, the answer's text and how it ended go out; references, related searches and counts are per reader and
 * reach each one through the REST presenter once the answer is finished.
 */
import type { ServerMessage } from '../../common/api/chat';
import type { RealtimeHub } from './hub';

/**
 * Text is gathered for this long before it goes out: a model writes a few characters at a time, and one event
 * per token would be one NOTIFY per token on a PostgreSQL server.
 */
export const ANSWER_CHUNK_GATHER_MS = 100;

/** A listener for one generation (server/chat/generations.ts) that publishes it to `topic:{topicId}`. */
export function publishAnswer(
  hub: RealtimeHub,
  ids: { orgId: string; topicId: string; answerId: string },
): (message: ServerMessage) => void {
  const channel = { kind: 'topic', topicId: ids.topicId } as const;
  let published = 0;
  let gathered = '';
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!gathered) return;
    hub.publish(ids.orgId, channel, {
      type: 'answer.chunk',
      topicId: ids.topicId,
      answerId: ids.answerId,
      offset: published,
      text: gathered,
    });
    published += gathered.length;
    gathered = '';
  };
  return (message) => {
    switch (message.type) {
      case 'QUERY_ACCEPTED':
        hub.publish(ids.orgId, channel, {
          type: 'message.added',
          topicId: ids.topicId,
          messageId: message.message_id,
        });
        return;
      case 'CHUNK':
        gathered += message.text;
        timer ??= setTimeout(flush, ANSWER_CHUNK_GATHER_MS);
        return;
      case 'TOPIC_TITLE':
        hub.publish(ids.orgId, channel, { type: 'topic.changed', topicId: ids.topicId });
        return;
      case 'ANSWER_SAVED':
        flush();
        hub.publish(ids.orgId, channel, {
          type: 'answer.finished',
          topicId: ids.topicId,
          answerId: ids.answerId,
          status: message.status,
        });
        return;
      default:
    }
  };
}
