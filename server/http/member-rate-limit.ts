/**
 * Per-member budgets for the calls that cost the server most (issue 11: search, autosuggest, chat questions). One
 * limiter per server, the auth limits' RateLimiter, counts REST and the chat socket alike, keyed by member: an
 * office behind one address is many members, and one member on several addresses is still one.
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { validation } from '../../common/strings';
import { RateLimiter } from '../auth/rate-limit';
import type { Viewer } from '../context';
import { ApiError } from '../errors';
import { viewerOf } from '../policies/access';

declare module 'fastify' {
  interface FastifyInstance {
    memberLimiter: RateLimiter;
  }
}

export type MemberLimit = { max: number; windowMs: number };

export function registerMemberRateLimits(app: FastifyInstance): void {
  app.decorate('memberLimiter', new RateLimiter());
}

/** Counts one call of `budget` for the member; answers null, or how long until they may call again (ms). */
export function takeMemberBudget(
  app: FastifyInstance,
  viewer: Pick<Viewer, 'userId'>,
  budget: string,
  limit: MemberLimit,
): number | null {
  return app.memberLimiter.take([{ key: `${budget}:${viewer.userId}`, ...limit }]);
}

/** A preHandler answering 429 RATE_LIMITED with Retry-After once the signed-in member has used up `limit`. */
export function limitPerMember(budget: string, limit: MemberLimit): preHandlerAsyncHookHandler {
  return async (request) => {
    const waitMs = takeMemberBudget(request.server, viewerOf(request), budget, limit);
    if (waitMs !== null) {
      throw new ApiError(429, 'RATE_LIMITED', validation.TOO_MANY_REQUESTS, {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      });
    }
  };
}
