/**
 * Sessions (spec §4.4, DESIGN §7): a short-lived id token plus a rotating refresh token. One sign-in is one family
 * of refresh-token rows; the family id is the id token's session id, so revoking the family also refuses its id
 * tokens at the guard. A refresh spends the presented token and issues the next one in the family; presenting a
 * spent token again means it was copied, so the whole family is revoked.
 *
 * A Google or SSO sign-in first hands the browser a one-time grant (60 s) instead of tokens, so tokens never
 * travel in an address. The grant is the first link of the family, digested under its own kind: exchanging it is
 * a rotation, and it can never be used as a refresh token.
 */
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { LOGIN_GRANT_TTL_SECONDS, authMessages } from '../../common/api/auth';
import type { LoginTokens } from '../../common/api/session';
import type { ServerContext } from '../context';
import { newId } from '../db/ids';
import { refreshTokens, users, type RefreshToken, type User } from '../db/schema';
import type { DbOrTx, Tx } from '../db/store';
import { unauthorized } from '../errors';
import { digestSecret, randomSecret, type SecretKind } from './digest';
import { SESSION_STATUSES } from './guard';
import { signIdToken } from './tokens';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;

type SessionContext = Pick<ServerContext, 'store' | 'tokenKey'>;
type SessionUser = Pick<User, 'id' | 'orgId' | 'email'>;
/** Who asked, kept on the row so an admin can later tell sessions apart. */
export type ClientInfo = { ip: string; userAgent: string | undefined };

export function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

async function insertLink(
  ctx: SessionContext,
  tx: DbOrTx,
  user: SessionUser,
  familyId: string,
  kind: SecretKind,
  client: ClientInfo,
  now: Date,
): Promise<string> {
  const secret = randomSecret();
  const ttlMs = kind === 'grant' ? LOGIN_GRANT_TTL_SECONDS * 1000 : REFRESH_TOKEN_TTL_MS;
  await tx.insert(refreshTokens).values({
    orgId: user.orgId,
    userId: user.id,
    familyId,
    tokenHash: digestSecret(ctx.tokenKey, kind, secret),
    expiresAt: new Date(now.getTime() + ttlMs),
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
  });
  return secret;
}

async function tokensFor(
  ctx: SessionContext,
  user: SessionUser,
  familyId: string,
  refreshToken: string,
  now: Date,
): Promise<LoginTokens> {
  const { token, expiresAt } = await signIdToken(
    ctx.tokenKey,
    { userId: user.id, orgId: user.orgId, email: user.email, sessionId: familyId },
    now,
  );
  return { id_token: token, refresh_token: refreshToken, expires_at: expiresAt, username: user.email };
}

/** Signs a member in: a new session family and its first tokens. The caller has checked the member may. */
export async function startSession(
  ctx: SessionContext,
  user: SessionUser,
  client: ClientInfo,
  now = new Date(),
): Promise<LoginTokens> {
  const familyId = newId();
  const refreshToken = await insertLink(ctx, ctx.store.db, user, familyId, 'refresh', client, now);
  return tokensFor(ctx, user, familyId, refreshToken, now);
}

/** A one-time grant for a new session, exchanged by `redeem(…, 'grant', …)`. */
export async function startGrant(
  ctx: SessionContext,
  user: SessionUser,
  client: ClientInfo,
  now = new Date(),
): Promise<string> {
  return insertLink(ctx, ctx.store.db, user, newId(), 'grant', client, now);
}

export async function revokeFamily(db: DbOrTx, familyId: string, now = new Date()) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Spends a refresh token or grant and answers the next tokens of its family. Anything else answers 401: unknown,
 * expired or revoked, a member who may no longer sign in (their family is revoked), or a spent link presented
 * again (reuse: the family is revoked, which also ends the id tokens and refresh token issued after it).
 */
export async function redeem(
  ctx: SessionContext,
  kind: 'refresh' | 'grant',
  secret: string,
  client: ClientInfo,
  now = new Date(),
): Promise<LoginTokens> {
  const { db } = ctx.store;
  const tokenHash = digestSecret(ctx.tokenKey, kind, secret);
  type Outcome = { user: SessionUser; familyId: string; next: string } | { revoke: string } | null;
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const [spent] = await tx
      .update(refreshTokens)
      .set({ rotatedAt: now })
      .where(
        and(
          eq(refreshTokens.tokenHash, tokenHash),
          isNull(refreshTokens.rotatedAt),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, now),
        ),
      )
      .returning();
    if (!spent) return null;
    const user = await sessionUser(tx, spent);
    if (!user) return { revoke: spent.familyId };
    const next = await insertLink(ctx, tx, user, spent.familyId, 'refresh', client, now);
    return { user, familyId: spent.familyId, next };
  });
  if (outcome && 'next' in outcome) return tokensFor(ctx, outcome.user, outcome.familyId, outcome.next, now);

  const familyId = outcome ? outcome.revoke : await reusedFamily(ctx, tokenHash);
  if (familyId) await revokeFamily(db, familyId, now);
  throw unauthorized(authMessages.SESSION_ENDED);
}

/** The family of a link that was already spent (and not yet revoked): presenting it again is reuse. */
async function reusedFamily(ctx: SessionContext, tokenHash: string): Promise<string | null> {
  const [row] = await ctx.store.db
    .select({ familyId: refreshTokens.familyId, rotatedAt: refreshTokens.rotatedAt })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.revokedAt)))
    .limit(1);
  return row?.rotatedAt ? row.familyId : null;
}

async function sessionUser(tx: Tx, link: RefreshToken): Promise<SessionUser | null> {
  const [user] = await tx
    .select({ id: users.id, orgId: users.orgId, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.id, link.userId),
        eq(users.orgId, link.orgId),
        inArray(users.status, [...SESSION_STATUSES]),
      ),
    )
    .limit(1);
  return user ?? null;
}

/** Logout: ends the session of a refresh token. Unknown tokens are ignored, so logging out twice is harmless. */
export async function endSession(ctx: SessionContext, refreshToken: string, now = new Date()): Promise<void> {
  const [row] = await ctx.store.db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, digestSecret(ctx.tokenKey, 'refresh', refreshToken)))
    .limit(1);
  if (row) await revokeFamily(ctx.store.db, row.familyId, now);
}
