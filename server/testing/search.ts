// What a member finds: the search API called as that member, for tests that check who may read what.
import type { SearchResponse } from '../../common/api/search';
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
