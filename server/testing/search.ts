// What a member finds: the search API called as that member, and the chat answer they get, for tests that check
// who may read what.
import type { AddressInfo } from 'node:net';
import { expect, vi } from 'vitest';
import type { SearchResponse } from '../../common/api/search';
import { ChatTestClient } from '../chat/testing/chat-client';
import { LLM_ENV_KEYS } from '../chat/testing/harness';
import type { User } from '../db/schema';
import { loginTokensFor } from './fixtures';
import type { TestServer } from './server';

/** The titles `user` finds for `q` (the first 20 hits, sorted); anything but a 200 fails with the answer's body. */
export async function titlesFound(server: TestServer, user: User, q: string): Promise<string[]> {
  const token = (await loginTokensFor(server.ctx, user)).id_token;
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/_search',
    headers: { authorization: `Bearer ${token}` },
    payload: { q, page_size: 20 },
  });
  if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`);
  return res
    .json<SearchResponse>()
    .hits.map((hit) => hit.name)
    .sort();
}

/** What a member is shown for one question, through both doors a revoked document could still come in by. */
export type MemberView = {
  /** The titles `_search` finds (titlesFound). */
  search: string[];
  /** The titles of the documents the chat answer cites, sorted. */
  chat: string[];
  /** Where those references open, sorted. */
  urls: string[];
  /** The answer's text as it was streamed; with no model it quotes each cited passage under its title. */
  answer: string;
};

/**
 * What `user` is shown for `q` by `_search` and by a chat answer asked through the real `/_chat_ws` socket. The
 * server starts listening on 127.0.0.1 if it is not yet. The question is answered with no model (the extractive
 * answer): a developer's own model keys are cleared for it, so it never leaves the machine.
 */
export async function shownTo(server: TestServer, user: User, q: string): Promise<MemberView> {
  const search = await titlesFound(server, user, q);
  if (!server.app.server.listening) await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  const token = (await loginTokensFor(server.ctx, user)).id_token;
  const before = LLM_ENV_KEYS.map((key) => [key, process.env[key]] as const);
  for (const key of LLM_ENV_KEYS) vi.stubEnv(key, '');
  let client: ChatTestClient | null = null;
  try {
    client = await ChatTestClient.open(`http://127.0.0.1:${port}`, token);
    client.send({ type: 'QUERY', query: q, isNewTopic: true });
    const { references } = await client.next('ANSWER_COMPLETE');
    // once saved, nothing of the answer is still running when the test moves on (or closes the server)
    await client.next('ANSWER_SAVED');
    return {
      search,
      chat: [...new Set(references.map((reference) => reference.title))].sort(),
      urls: references.flatMap((reference) => (reference.url === null ? [] : [reference.url])).sort(),
      answer: client.text(),
    };
  } finally {
    await client?.close();
    for (const [key, value] of before) vi.stubEnv(key, value);
  }
}

/** A view (toMatchObject) showing `title` alone: in `_search`, among the chat's references and in its text. */
export const showing = (title: string) => ({
  search: [title],
  chat: [title],
  answer: expect.stringContaining(title),
});

/** A view (toMatchObject) showing nothing at all, `title` least of all: no hit, no reference, not in the text. */
export const hiding = (title: string) => ({
  search: [],
  chat: [],
  urls: [],
  answer: expect.not.stringContaining(title),
});
