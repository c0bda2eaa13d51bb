import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import { LLM_ENV_KEYS } from '../server/chat/testing/harness';
import { orgs, type User } from '../server/db/schema';
import {
  startOpenAiServer,
  type OpenAiTestServer,
  type Responder,
} from '../server/llm/testing/openai-server';
import { upsertDocuments, type IndexDocument } from '../server/search';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer } from '../server/testing/server';

export { launchBrowser, seedSession, withSignedInPage } from './browser';

export type RunningScout = {
  baseUrl: string;
  stop(): Promise<void>;
  /** Creates the org on first use of its domain (with these settings); later calls reuse it as it is. */
  createUser(options: {
    email: string;
    admin?: boolean;
    orgDomain?: string;
    workspaceSetup?: boolean;
    flags?: Record<string, boolean>;
    firstName?: string;
    lastName?: string;
    status?: User['status'];
  }): Promise<{ tokens: LoginTokens }>;
  /** Replaces the feature flags of the org that owns `domain` (an org made by sign-up, say). */
  setOrgFlags(domain: string, flags: Record<string, boolean>): Promise<void>;
  /** Indexes documents for the org that owns `domain` through the search store (what a connector sync writes). */
  indexDocuments(domain: string, docs: IndexDocument[]): Promise<string[]>;
};

/**
 * The real server with the built SPA (dist/app, made by `npm run build`) on a fresh store and a free port. `env` is
 * the environment its config is read from (SMTP_URL pointing at a test SMTP server, say).
 */
export async function startScout(options: { env?: NodeJS.ProcessEnv } = {}): Promise<RunningScout> {
  const server = await createTestServer({ env: options.env });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  const { db } = server.store;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => server.close(),
    async createUser({ email, admin, orgDomain, workspaceSetup, flags, firstName, lastName, status }) {
      const domain = orgDomain ?? email.split('@')[1] ?? 'example.test';
      const org = await createOrg(db, { domain, workspaceSetup, flags });
      const user = await createUser(db, org, { email, admin, firstName, lastName, status });
      return { tokens: await loginTokensFor(server.ctx, user) };
    },
    async setOrgFlags(domain, flags) {
      const updated = await db.update(orgs).set({ flags }).where(eq(orgs.domain, domain)).returning();
      if (updated.length !== 1) throw new Error(`no org owns ${domain}`);
    },
    async indexDocuments(domain, docs) {
      const [org] = await db.select().from(orgs).where(eq(orgs.domain, domain));
      if (!org) throw new Error(`no org owns ${domain}`);
      return (await upsertDocuments(db, org.id, docs)).documentIds;
    },
  };
}

export type ChatScout = RunningScout & { model: OpenAiTestServer };

/**
 * Scout answering with an OpenAI-compatible test model: every provider key of the environment blanked and the
 * model's URL set (the chat reads its settings at each question). `stop` closes both and restores the environment.
 */
export async function startChatScout(respond: Responder): Promise<ChatScout> {
  for (const key of LLM_ENV_KEYS) vi.stubEnv(key, '');
  const model = await startOpenAiServer({ respond });
  vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', model.url);
  const scout = await startScout({ env: { OPENAI_COMPATIBLE_BASE_URL: model.url } });
  return {
    ...scout,
    model,
    async stop() {
      await scout.stop();
      await model.close();
      vi.unstubAllEnvs();
    },
  };
}

/** Calls the API as a signed-in member, as the app does, and answers the JSON body; a non-2xx answer throws. */
export async function callApi<T>(
  baseUrl: string,
  tokens: LoginTokens,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens.id_token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
