import { and, eq, inArray, isNotNull, notExists } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Viewer } from '../context';
import { refreshTokens, users } from '../db/schema';
import { ApiError, unauthorized } from '../errors';
import { verifyIdToken } from './tokens';

/** Members in these states may hold a session; blocked and deleted members lose access at their next call. */
export const SESSION_STATUSES = ['SIGNED_UP', 'CREATED', 'INVITED'] as const;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** Resolves the viewer from the bearer token, or throws 401. Every signed-in route runs it before loading data. */
export async function authenticate(request: FastifyRequest): Promise<Viewer> {
  const token = bearerToken(request);
  if (!token) throw unauthorized('Tokens not found');
  const { tokenKey, store } = request.server.ctx;
  const claims = await verifyIdToken(tokenKey, token);
  if (!claims) throw unauthorized('Your session has expired. Please sign in again.');
  // One statement: the member is live and their session (the id token's refresh-token family) was not revoked
  // by logout or reuse detection. Revocation marks every row of the family, so any revoked row settles it.
  const [user] = await store.db
    .select({ userId: users.id, orgId: users.orgId, email: users.email, admin: users.admin })
    .from(users)
    .where(
      and(
        eq(users.id, claims.userId),
        eq(users.orgId, claims.orgId),
        inArray(users.status, [...SESSION_STATUSES]),
        notExists(
          store.db
            .select({ one: refreshTokens.id })
            .from(refreshTokens)
            .where(and(eq(refreshTokens.familyId, claims.sessionId), isNotNull(refreshTokens.revokedAt))),
        ),
      ),
    )
    .limit(1);
  if (!user) throw unauthorized('Your session has expired. Please sign in again.');
  const viewer: Viewer = { ...user, sessionId: claims.sessionId };
  request.viewer = viewer;
  return viewer;
}

/**
 * A socket's token (its AUTH message), verified exactly as a request's bearer header is: the viewer, or null for a
 * token the guard refuses (401). `request` is the socket's upgrade request.
 */
export async function authenticateToken(request: FastifyRequest, token: string): Promise<Viewer | null> {
  request.headers.authorization = `Bearer ${token}`;
  try {
    return await authenticate(request);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 401) return null;
    throw error;
  }
}
