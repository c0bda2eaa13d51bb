/**
 * The real server listening on 127.0.0.1 with the chat socket, an OpenAI-compatible test model behind
 * OPENAI_COMPATIBLE_BASE_URL (or no model at all), an org with members, and documents indexed through server/search.
 * Test data goes in through the store; the test then acts through the socket like a client.
 */
import { eq, sql } from 'drizzle-orm';
import { vi } from 'vitest';
import { messages, type Message, type NewMessage, type Org, type User } from '../../db/schema';
import type { Store } from '../../db/store';
import { upsertDocuments, type IndexDocument } from '../../search';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';
import { startOpenAiServer, type OpenAiTestServer, type Responder } from '../../llm/testing/openai-server';
import { ChatTestClient } from './chat-client';

/** Every variable the model registry and web search read: cleared so a developer's own keys never leak in. */
export const LLM_ENV_KEYS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'XAI_API_KEY',
  'DEEPSEEK_API_KEY',
  'LLAMA_API_KEY',
  'LLAMA_BASE_URL',
  'LLAMA_MODEL',
  'OPENAI_COMPATIBLE_BASE_URL',
  'OPENAI_COMPATIBLE_API_KEY',
  'OPENAI_COMPATIBLE_MODEL',
  'LLM_MODEL_OVERRIDES',
  'WEB_SEARCH_API_KEY',
  'WEB_SEARCH_BASE_URL',
] as const;

/** The one document most chat tests answer from. */
export const LEAVE_POLICY: IndexDocument = {
  source: 'notion',
  externalId: 'leave',
  title: 'Parental leave policy',
  body: 'Employees get sixteen weeks of paid parental leave.',
  acl: ['org'],
};

/** Polls `read` until `done` holds or the time is up, and returns the last value for the test to assert on. */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One more `scout serve` instance on the harness's store (another process, as far as the chat is concerned). */
export type ChatInstance = {
  server: TestServer;
  url: string;
  aliceToken: string;
  bobToken: string;
  connect(token?: string): Promise<ChatTestClient>;
  close(): Promise<void>;
};

export type ChatHarness = {
  server: TestServer;
  url: string;
  model: OpenAiTestServer | null;
  org: Org;
  alice: User;
  bob: User;
  aliceToken: string;
  bobToken: string;
  connect(token?: string): Promise<ChatTestClient>;
  index(docs: IndexDocument[]): Promise<string[]>;
  storedMessage(id: string): Promise<Message>;
  /** A PENDING answer left by a process that is gone: nothing has touched it for a minute. */
  insertOrphanAnswer(values: Omit<NewMessage, 'orgId' | 'sender' | 'status'>): Promise<Message>;
  /** Starts another instance over `store`, which must be a second connection to the same database. */
  startInstance(store: Store): Promise<ChatInstance>;
  close(): Promise<void>;
};

export async function startChatHarness(
  options: {
    model?: 'fake' | 'none';
    respond?: Responder;
    plan?: 'TEAM' | 'BUSINESS' | 'ENTERPRISE';
    flags?: Record<string, boolean | number>;
    domain?: string;
    env?: Record<string, string>;
    /** The store (a PostgreSQL server database, to share it with startInstance); default in-memory PGlite. */
    store?: Store;
  } = {},
): Promise<ChatHarness> {
  for (const key of LLM_ENV_KEYS) vi.stubEnv(key, '');
  const model = options.model === 'none' ? null : await startOpenAiServer({ respond: options.respond });
  if (model) vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', model.url);
  for (const [key, value] of Object.entries(options.env ?? {})) vi.stubEnv(key, value);
  const server = await createTestServer({ store: options.store });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const domain = options.domain ?? 'chat.test';
  const { db } = server.store;
  const org = await createOrg(db, { domain, name: 'Chat Co', plan: options.plan, flags: options.flags });
  const alice = await createUser(db, org, { email: `alice@${domain}`, firstName: 'Alice' });
  const bob = await createUser(db, org, { email: `bob@${domain}`, firstName: 'Bob' });
  const aliceToken = (await loginTokensFor(server.ctx, alice)).id_token;
  const bobToken = (await loginTokensFor(server.ctx, bob)).id_token;
  const clients: ChatTestClient[] = [];
  const instances: ChatInstance[] = [];
  return {
    server,
    url,
    model,
    org,
    alice,
    bob,
    aliceToken,
    bobToken,
    async connect(token) {
      const client = await ChatTestClient.open(url, token);
      clients.push(client);
      return client;
    },
    async index(docs) {
      return (await upsertDocuments(db, org.id, docs)).documentIds;
    },
    async storedMessage(id) {
      const [row] = await db.select().from(messages).where(eq(messages.id, id));
      if (!row) throw new Error(`no message ${id}`);
      return row;
    },
    async insertOrphanAnswer(values) {
      const [orphan] = await db
        .insert(messages)
        .values({ ...values, orgId: org.id, sender: 'ASSISTANT', status: 'PENDING' })
        .returning();
      if (!orphan) throw new Error('message insert returned nothing');
      // updated_at is set by the app on every update; only raw SQL can age it
      await db.execute(
        sql`UPDATE messages SET updated_at = now() - interval '1 minute' WHERE id = ${orphan.id}`,
      );
      return orphan;
    },
    async startInstance(store) {
      const other = await createTestServer({ store });
      const otherUrl = await other.app.listen({ port: 0, host: '127.0.0.1' });
      const instance: ChatInstance = {
        server: other,
        url: otherUrl,
        // every instance signs with its own key here; in production they share SCOUT_SECRET_KEY
        aliceToken: (await loginTokensFor(other.ctx, alice)).id_token,
        bobToken: (await loginTokensFor(other.ctx, bob)).id_token,
        async connect(token) {
          const client = await ChatTestClient.open(otherUrl, token);
          clients.push(client);
          return client;
        },
        close: () => other.close(),
      };
      instances.push(instance);
      return instance;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      for (const instance of instances) await instance.close();
      await server.close();
      await model?.close();
      vi.unstubAllEnvs();
    },
  };
}
