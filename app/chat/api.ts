// The HTTP calls of the chat screens (common/api/topics.ts, feedback.ts, llms.ts), through the one API client.
import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { feedbackResponseSchema, type FeedbackRequestInput } from '../../common/api/feedback';
import { llmListResponseSchema } from '../../common/api/llms';
import {
  chatHistoryResponseSchema,
  topicByIdResponseSchema,
  topicsResponseSchema,
  topicSummarySchema,
} from '../../common/api/topics';
import { apiRequest } from '../api/client';

export const chatKeys = {
  all: ['chat'] as const,
  history: ['chat', 'history'] as const,
  topic: (id: string) => ['chat', 'topic', id] as const,
  topics: (query: string) => ['chat', 'topics', query] as const,
  topicsRoot: ['chat', 'topics'] as const,
  llms: ['chat', 'llms'] as const,
};

/** `GET /_chatHistory`: newest page first; each next page is older (scroll_timestamp = the oldest tsSentAt seen). */
export function useChatHistory() {
  return useInfiniteQuery({
    queryKey: chatKeys.history,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest('_chatHistory', {
        schema: chatHistoryResponseSchema,
        query: { scroll_timestamp: pageParam, api_version: 2 },
        signal,
      }),
    getNextPageParam: (page) => (page.has_more ? (page.history.at(-1)?.tsSentAt ?? null) : null),
    staleTime: Infinity,
  });
}

export function useTopic(id: string) {
  return useQuery({
    queryKey: chatKeys.topic(id),
    queryFn: ({ signal }) =>
      apiRequest(`topics/topicById/${encodeURIComponent(id)}`, { schema: topicByIdResponseSchema, signal }),
    retry: false,
  });
}

/** `GET /topics` (My topics), first page, filtered by title. */
export function useMyTopics(query: string) {
  return useQuery({
    queryKey: chatKeys.topics(query),
    queryFn: ({ signal }) =>
      apiRequest('topics', {
        schema: topicsResponseSchema,
        query: { page: 1, topic_type: 'MY_TOPICS', query: query || undefined },
        signal,
      }),
    placeholderData: (previous) => previous,
    staleTime: 30_000,
  });
}

export function useLlms() {
  return useQuery({
    queryKey: chatKeys.llms,
    queryFn: ({ signal }) => apiRequest('llms', { schema: llmListResponseSchema, signal }),
    staleTime: 5 * 60_000,
  });
}

export function renameTopic(id: string, title: string) {
  return apiRequest(`topics/topic/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { topic_title: title },
    schema: topicSummarySchema,
  });
}

export function deleteTopic(id: string) {
  return apiRequest(`topics/topic/${encodeURIComponent(id)}`, { method: 'DELETE', schema: z.unknown() });
}

export function markTopicRead(id: string) {
  return apiRequest(`topics/topic/${encodeURIComponent(id)}/mark_as_read`, {
    method: 'PATCH',
    schema: z.unknown(),
  });
}

export function sendFeedback(body: FeedbackRequestInput) {
  return apiRequest('feedback', { method: 'POST', body, schema: feedbackResponseSchema });
}

/** After a topic changes (new, renamed, deleted, read): the sidebar list and the history read it again. */
export function refreshTopicLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: chatKeys.topicsRoot });
}
