import { VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Navigate, useParams } from 'react-router';
import type { ChatMessage } from '../../common/api/messages';
import { markTopicRead, refreshTopicLists, useTopic } from '../chat/api';
import { useLiveTopic } from '../realtime/live-topic';
import { PublicTopicScreen } from './PublicTopicScreen';
import { ChatView } from './chat/ChatView';
import { isMissingTopic } from './public/public-topic-query';

const NO_MESSAGES: readonly ChatMessage[] = [];

/** /topic/{id}/{msgId?}: one topic, oldest message first, optionally focused on one message. */
export function TopicScreen() {
  const { id = '', msgId } = useParams();
  const topic = useTopic(id);
  const queryClient = useQueryClient();
  // what others post and stream in a shared topic shows without a reload
  const messages = useLiveTopic(id, topic.data?.messages ?? NO_MESSAGES);
  const loaded = topic.data?.conversation_id;
  const files = topic.data?.topic_files;
  const fileDates = useMemo(
    () => Object.fromEntries((files ?? []).map((file) => [file.id, file.created_at])),
    [files],
  );

  // Opening a topic reads it: its unread badge goes.
  useEffect(() => {
    if (!loaded) return;
    markTopicRead(loaded)
      .then(() => refreshTopicLists(queryClient))
      .catch((error: unknown) => console.warn('marking the topic read failed', error));
  }, [loaded, queryClient]);

  // Spec shell-and-account §8: a failed topic load silently returns to /chat, unless the topic is public (another
  // workspace's, shared by link): then the public page shows it, and itself returns to /chat when it is not.
  if (topic.isError) {
    return isMissingTopic(topic.error) ? <PublicTopicScreen /> : <Navigate to="/chat" replace />;
  }
  const data = topic.data;
  return (
    <>
      <VisuallyHidden>
        <h1>{data?.topic_title ?? ''}</h1>
      </VisuallyHidden>
      <ChatView
        key={id}
        messages={messages}
        fileDates={fileDates}
        conversationId={id}
        loading={topic.isPending}
        showOnboarding={false}
        focusMessageId={msgId}
        topic={
          data && {
            id: data.conversation_id,
            title: data.topic_title,
            isEditable: data.isEditable,
            isDeletable: data.isDeletable,
          }
        }
      />
    </>
  );
}
