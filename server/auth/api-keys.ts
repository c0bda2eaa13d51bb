/**
 * Organisation API keys (DESIGN §7): the credential of the public API and of custom-api pushes. A key is shown once
 * when made; the store keeps only its SHA-256 (a key is 32 random bytes, so a plain hash cannot be brute-forced) and
 * a short prefix for recognising it in the admin list.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { API_KEY_NAME_TAKEN_MESSAGE } from '../../common/api/api-keys';
import { apiKeys, users, type ApiKey, type User } from '../db/schema';
import type { Db } from '../db/store';
import { badRequest, unauthorized } from '../errors';

const KEY_PREFIX = 'scout_';
const SHOWN_PREFIX_CHARS = KEY_PREFIX.length + 6;

export const API_KEY_REQUIRED_MESSAGE = 'A valid API key is required.';

/** The organisation whose key authenticated a request. */
export type ApiKeyCaller = { keyId: string; orgId: string };

const callers = new WeakMap<FastifyRequest, ApiKeyCaller>();

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Makes a key for an org; the plain key is returned here and never again. The name is unique among the org's
 * unrevoked keys (a partial unique index, so two simultaneous creates cannot both take it): 400 when taken.
 */
export async function createApiKey(
  db: Db,
  input: { orgId: string; name: string; createdBy?: string | null },
): Promise<{ id: string; key: string }> {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      orgId: input.orgId,
      name: input.name,
      keyHash: hashApiKey(key),
      prefix: key.slice(0, SHOWN_PREFIX_CHARS),
      createdBy: input.createdBy ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: apiKeys.id });
  if (!row) throw badRequest(API_KEY_NAME_TAKEN_MESSAGE);
  return { id: row.id, key };
}

export type ApiKeyListing = {
  key: ApiKey;
  creator: Pick<User, 'id' | 'email' | 'displayName' | 'firstName' | 'lastName'> | null;
};

const creatorColumns = {
  id: users.id,
  email: users.email,
  displayName: users.displayName,
  firstName: users.firstName,
  lastName: users.lastName,
};

/** The org's unrevoked keys with who made them, newest first. */
export async function listApiKeys(db: Db, orgId: string, keyId?: string): Promise<ApiKeyListing[]> {
  return db
    .select({ key: apiKeys, creator: creatorColumns })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(
      and(eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt), keyId ? eq(apiKeys.id, keyId) : undefined),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/**
 * Revokes one of the org's keys; false when the org has no such unrevoked key. Authentication reads `revoked_at`
 * on every request, so the key is refused from the next request on.
 */
export async function revokeApiKey(db: Db, orgId: string, keyId: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** Resolves the caller from `Authorization: Bearer <key>`, or throws 401; revoked keys are refused. */
export async function authenticateApiKey(request: FastifyRequest): Promise<ApiKeyCaller> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  const key = match?.[1];
  if (!key?.startsWith(KEY_PREFIX)) throw unauthorized(API_KEY_REQUIRED_MESSAGE);
  const { db } = request.server.ctx.store;
  const [row] = await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)))
    .returning({ keyId: apiKeys.id, orgId: apiKeys.orgId });
  if (!row) throw unauthorized(API_KEY_REQUIRED_MESSAGE);
  callers.set(request, row);
  return row;
}

/** The caller of an API-key route; the access hook has already resolved it. */
export function apiKeyCallerOf(request: FastifyRequest): ApiKeyCaller {
  const caller = callers.get(request);
  if (!caller) throw unauthorized(API_KEY_REQUIRED_MESSAGE);
  return caller;
}
