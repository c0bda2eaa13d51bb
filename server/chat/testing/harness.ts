/**
 * The real server listening on 127.0.0.1 with the chat socket, an OpenAI-compatible test model behind
 * OPENAI_COMPATIBLE_BASE_URL (or no model at all), an org with members, and documents indexed through server/search.
 * Test data goes in through the store; the test then acts through the socket like a client.
 */
import { vi } from 'vitest';
import type { User } from '../../db/schema';
import type { Org } from '../../db/schema';
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
  } = {},
): Promise<ChatHarness> {
  for (const key of LLM_ENV_KEYS) vi.stubEnv(key, '');
  const model = options.model === 'none' ? null : await startOpenAiServer({ respond: options.respond });
  if (model) vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', model.url);
  for (const [key, value] of Object.entries(options.env ?? {})) vi.stubEnv(key, value);
  const server = await createTestServer();
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const domain = options.domain ?? 'chat.test';
  const { db } = server.store;
  const org = await createOrg(db, { domain, name: 'Chat Co', plan: options.plan, flags: options.flags });
  const alice = await createUser(db, org, { email: `alice@${domain}`, firstName: 'Alice' });
  const bob = await createUser(db, org, { email: `bob@${domain}`, firstName: 'Bob' });
  const aliceToken = (await loginTokensFor(server.ctx, alice)).id_token;
  const bobToken = (await loginTokensFor(server.ctx, bob)).id_token;
  const clients: ChatTestClient[] = [];
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
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await server.close();
      await model?.close();
      vi.unstubAllEnvs();
    },
  };
}
