import { useQuery } from '@tanstack/react-query';
import { publicTopicResponseSchema } from '../../../common/api/topics';
import { apiRequest } from '../../api/client';
import { BadRequestError, NotFoundError } from '../../api/errors';

/**
 * `GET /topics/publicTopicById/{id}`. Sent without the bearer token: a public topic reads the same for everyone,
 * and a signed-in member of another org has no standing in its org anyway.
 */
export function usePublicTopic(id: string) {
  return useQuery({
    queryKey: ['public-topic', id],
    queryFn: ({ signal }) =>
      apiRequest(`topics/publicTopicById/${encodeURIComponent(id)}`, {
        schema: publicTopicResponseSchema,
        signal,
        auth: false,
      }),
    retry: false,
  });
}

/** No public topic by that address (none at all, not public, or not a topic id): the page says so. */
export function isMissingTopic(error: unknown): boolean {
  return error instanceof NotFoundError || error instanceof BadRequestError;
}
