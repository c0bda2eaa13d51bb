// The HTTP calls of the chat screens (common/api/topics.ts, feedback.ts, llms.ts), through the one API client.
import { keepPreviousData, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { feedbackResponseSchema, type FeedbackRequestInput } from '../../common/api/feedback';
import { llmListResponseSchema } from '../../common/api/llms';
import { membersResponseSchema } from '../../common/api/members';
import { searchableSourcesResponseSchema } from '../../common/api/sources';
import {
  chatHistoryResponseSchema,
  createMessageResponseSchema,
  topicByIdResponseSchema,
  topicMembersResponseSchema,
  topicsResponseSchema,
  topicSummarySchema,
  TOPICS_PAGE_SIZE,
  type CreateMessageRequestInput,
  type TopicType,
  type TopicUpdateRequest,
} from '../../common/api/topics';
import { MEMBER_SEARCH_PAGE } from '../../common/limits';
import { apiRequest } from '../api/client';

export const SOURCES_QUERY_KEY = ['sources'] as const;

export const chatKeys = {
  all: ['chat'] as const,
  history: ['chat', 'history'] as const,
  topic: (id: string) => ['chat', 'topic', id] as const,
  topics: (kind: TopicType, query: string) => ['chat', 'topics', kind, query] as const,
  topicsRoot: ['chat', 'topics'] as const,
  llms: ['chat', 'llms'] as const,
  members: (id: string) => ['chat', 'topic-members', id] as const,
  memberSearch: (query: string) => ['chat', 'member-search', query] as const,
  mentionSearch: (query: string) => ['chat', 'mention-search', query] as const,
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

/**
 * `GET /topics` of one kind, filtered by title, page after page as the sidebar scrolls (spec §4.6: the page counter
 * goes up by one). A page shorter than TOPICS_PAGE_SIZE is the last.
 */
export function useTopicList(kind: TopicType, query: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: chatKeys.topics(kind, query),
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      apiRequest('topics', {
        schema: topicsResponseSchema,
        query: { page: pageParam, topic_type: kind, query: query || undefined },
        signal,
      }),
    getNextPageParam: (page, pages) => (page.topics.length < TOPICS_PAGE_SIZE ? null : pages.length + 1),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** `GET /sources`: the apps the member can search, with how many documents of each they may read. */
export function useSearchableSources() {
  return useQuery({
    queryKey: SOURCES_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest('sources', { schema: searchableSourcesResponseSchema, signal }),
    staleTime: 60_000,
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
  return updateTopic(id, { topic_title: title });
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

/** `GET /topics/topic/members/{id}`: the owner and the editors. */
export function useTopicMembers(id: string) {
  return useQuery({
    queryKey: chatKeys.members(id),
    queryFn: ({ signal }) =>
      apiRequest(`topics/topic/members/${encodeURIComponent(id)}`, {
        schema: topicMembersResponseSchema,
        signal,
      }),
  });
}

/** `GET /members?q=&page=1`: colleagues to add to a topic (the search asks for the first page only). */
export function useMemberSearch(query: string) {
  return useQuery({
    queryKey: chatKeys.memberSearch(query),
    enabled: query !== '',
    staleTime: 30_000,
    queryFn: ({ signal }) =>
      apiRequest('members', {
        schema: membersResponseSchema,
        query: { q: query, page: MEMBER_SEARCH_PAGE },
        signal,
      }),
  });
}

/** `GET /members?q=&page=1` for the @mention menu: a bare @ (empty query) lists colleagues too. */
export function useMentionSearch(query: string, enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.mentionSearch(query),
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiRequest('members', {
        schema: membersResponseSchema,
        query: { q: query || undefined, page: MEMBER_SEARCH_PAGE },
        signal,
      }),
  });
}

/** `POST /messages/create`: a message to the colleagues tagged in it (no answer is generated). */
export function createSharedMessage(body: CreateMessageRequestInput) {
  return apiRequest('messages/create', { method: 'POST', body, schema: createMessageResponseSchema });
}

export function addTopicMember(conversationId: string, email: string) {
  return apiRequest('topics/topic/member', {
    method: 'POST',
    body: { conversation_id: conversationId, user_email: email },
    schema: topicMembersResponseSchema,
  });
}

/** Access level or title: one change per call. */
export function updateTopic(id: string, change: TopicUpdateRequest) {
  return apiRequest(`topics/topic/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: change,
    schema: topicSummarySchema,
  });
}

export function sendFeedback(body: FeedbackRequestInput) {
  return apiRequest('feedback', { method: 'POST', body, schema: feedbackResponseSchema });
}

/** After a topic changes (new, renamed, deleted, read): the sidebar list and the history read it again. */
export function refreshTopicLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: chatKeys.topicsRoot });
}
