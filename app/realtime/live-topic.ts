// A shared topic as others write in it (asking-questions §4 topic access: multiplayer): the topic screen reads the
// topic again when someone posts, renames or re-shares it, and shows an answer's text as it streams. The finished
// answer is read over REST, whose presenter gives this reader their own references and suggestions.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessage } from '../../common/api/messages';
import { realtimeChannelSchema, topicChannel } from '../../common/api/realtime';
import { isFlagOn, useSignedInUser } from '../auth/session';
import { chatKeys } from '../chat/api';
import { appendChunk, withLiveText, type LiveText } from './live-text';
import { useRealtimeChannel } from './use-channel';

/** Ours: a stream that cannot join the server's text is read again at most this often. */
const GAP_REFETCH_MS = 1_000;

/** The topic's messages with the answers others are streaming; the topic is read again as others change it. */
export function useLiveTopic(topicId: string, messages: readonly ChatMessage[]): readonly ChatMessage[] {
  const queryClient = useQueryClient();
  const [streams, setStreams] = useState<Record<string, LiveText>>({});
  const lastGapRefetch = useRef(0);
  const refetch = useCallback(
    () => queryClient.invalidateQueries({ queryKey: chatKeys.topic(topicId) }),
    [queryClient, topicId],
  );

  // Live topics need their flag; an address that names no topic id has no channel (the screen goes back to /chat
  // when the topic fails to load).
  const live = isFlagOn(useSignedInUser(), 'realtimeMultiplayer');
  const channel =
    live && realtimeChannelSchema.safeParse(topicChannel(topicId)).success ? topicChannel(topicId) : null;
  useRealtimeChannel(
    channel,
    (event) => {
      switch (event.type) {
        case 'message.added':
        case 'topic.changed':
          void refetch();
          return;
        case 'answer.chunk':
          setStreams((current) => ({
            ...current,
            [event.answerId]: appendChunk(current[event.answerId], event),
          }));
          return;
        case 'answer.finished':
          // the stream is kept until the finished message is in, so the text does not jump back meanwhile
          void refetch().finally(() => setStreams(({ [event.answerId]: _finished, ...rest }) => rest));
          return;
      }
    },
    () => void refetch(),
  );

  const shown = useMemo(() => withLiveText(messages, streams), [messages, streams]);
  useEffect(() => {
    if (!shown.gap || Date.now() - lastGapRefetch.current < GAP_REFETCH_MS) return;
    lastGapRefetch.current = Date.now();
    void refetch();
  }, [shown.gap, refetch]);
  return shown.messages;
}
