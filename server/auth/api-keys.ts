/**
 * Organisation API keys (DESIGN §7): the credential of the public API and of custom-api pushes. A key is shown once
 * when made; the store keeps only its SHA-256 (a key is 32 random bytes, so a plain hash cannot be brute-forced) and
 * a short prefix for recognising it in the admin list.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { apiKeys } from '../db/schema';
import type { Db } from '../db/store';
import { unauthorized } from '../errors';

const KEY_PREFIX = 'scout_';
const SHOWN_PREFIX_CHARS = KEY_PREFIX.length + 6;

export const API_KEY_REQUIRED_MESSAGE = 'A valid API key is required.';

/** The organisation whose key authenticated a request. */
export type ApiKeyCaller = { keyId: string; orgId: string };

const callers = new WeakMap<FastifyRequest, ApiKeyCaller>();

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Makes a key for an org; the plain key is returned here and never again. */
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
    .returning({ id: apiKeys.id });
  if (!row) throw new Error('api key insert returned nothing');
  return { id: row.id, key };
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
