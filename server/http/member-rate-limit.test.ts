import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_QUESTION_RATE_LIMIT, SEARCH_RATE_LIMIT } from '../../common/limits';
import { validation } from '../../common/strings';
import { startChatHarness, waitFor, type ChatHarness } from '../chat/testing/harness';

let h: ChatHarness;
beforeAll(async () => {
  h = await startChatHarness({ model: 'none', domain: 'limits.test' });
});
afterAll(() => h.close());

const call = (path: string, token: string, body: Record<string, unknown>) =>
  h.server.app.inject({
    method: 'POST',
    url: `/api/v1${path}`,
    headers: { authorization: `Bearer ${token}` },
    body,
  });

describe('per-member rate limits', () => {
  it('answer 429 RATE_LIMITED to a member past the search budget, shared by _search and _autosuggest, and to no one else', async () => {
    // a real user's burst, well within the budget
    for (let i = 0; i < SEARCH_RATE_LIMIT.max - 1; i++) {
      expect((await call('/_search', h.aliceToken, { q: `leave ${i}` })).statusCode).toBe(200);
    }
    expect((await call('/_autosuggest', h.aliceToken, { q: 'lea' })).statusCode).toBe(200);
    for (const [path, body] of [
      ['/_search', { q: 'leave' }],
      ['/_autosuggest', { q: 'lea' }],
    ] as const) {
      const refused = await call(path, h.aliceToken, body);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ code: 'RATE_LIMITED', message: validation.TOO_MANY_REQUESTS });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // counted per member, not per address: Bob, from the same address, searches on
    expect((await call('/_search', h.bobToken, { q: 'leave' })).statusCode).toBe(200);
  });

  it('refuse a question over the socket with ERROR RATE_LIMITED once the member asked too many, writing nothing', async () => {
    const client = await h.connect(h.bobToken);
    for (let i = 0; i < CHAT_QUESTION_RATE_LIMIT.max; i++)
      client.send({ type: 'QUERY', query: `question ${i}` });
    await waitFor(
      async () => client.all('ERROR').length + client.all('QUERY_ACCEPTED').length,
      (n) => n >= CHAT_QUESTION_RATE_LIMIT.max,
    );
    expect(client.all('ERROR').filter((error) => error.code === 'RATE_LIMITED')).toEqual([]);
    const accepted = client.all('QUERY_ACCEPTED').length;
    client.send({ type: 'QUERY', query: 'one too many' });
    expect(await client.next('ERROR', (error) => error.code === 'RATE_LIMITED')).toMatchObject({
      message: validation.TOO_MANY_REQUESTS,
    });
    expect(client.all('QUERY_ACCEPTED')).toHaveLength(accepted);
    // Alice's budget is her own
    const alice = await h.connect(h.aliceToken);
    alice.send({ type: 'QUERY', query: 'How long is parental leave?' });
    expect(await alice.next('QUERY_ACCEPTED')).toBeTruthy();
  });
});
