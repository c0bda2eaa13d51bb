// The demo documents: well-formed, indexed once (a second seed writes nothing), and readable only as their ACLs
// say, through the real search API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../common/api/search';
import { isSearchSource } from '../../common/api/search';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { DEMO_DOCUMENTS } from './content';
import { seedDemoContent, seedDemoWorkspace } from './seed';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
  await seedDemoWorkspace(server.store);
});
afterAll(() => server.close());

async function searchAs(email: string, q: string): Promise<SearchResponse> {
  const [user] = await server.store.db.select().from(users).where(eq(users.email, email));
  const { id_token } = await loginTokensFor(server.ctx, user!);
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/_search',
    headers: { authorization: `Bearer ${id_token}` },
    payload: { q, page_size: 20 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SearchResponse>();
}

describe('the demo content', () => {
  it('is about fifty Markdown documents from known sources with unique ids', () => {
    expect(DEMO_DOCUMENTS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(DEMO_DOCUMENTS.map((doc) => `${doc.source}/${doc.id}`)).size).toBe(DEMO_DOCUMENTS.length);
    for (const doc of DEMO_DOCUMENTS) {
      expect(isSearchSource(doc.source)).toBe(true);
      expect(doc.body.startsWith(`# ${doc.title.replace(/’/g, "'")}`), doc.id).toBe(true);
      expect(doc.body.split(/\s+/).length, doc.id).toBeLessThanOrEqual(600);
    }
  });

  it('is indexed once: a second seed writes nothing', async () => {
    expect(await seedDemoContent(server.store)).toBe(DEMO_DOCUMENTS.length);
    expect(await seedDemoContent(server.store)).toBe(0);
  });

  it('shows private and group documents only to their readers', async () => {
    const oneToOne = 'Ben / Ada 1:1 notes';
    expect((await searchAs('ben@acme.test', 'staff engineer career')).hits.map((h) => h.name)).toContain(
      oneToOne,
    );
    expect(
      (await searchAs('chloe@acme.test', 'staff engineer career')).hits.map((h) => h.name),
    ).not.toContain(oneToOne);
    const offsite = 'Leadership offsite notes';
    expect((await searchAs('chloe@acme.test', 'acquisition')).hits.map((h) => h.name)).toContain(offsite);
    const dev = await searchAs('dev@acme.test', 'acquisition');
    expect(dev.hits.map((h) => h.name)).not.toContain(offsite);
    expect((await searchAs('dev@acme.test', 'on-call runbook')).hits.map((h) => h.name)).toContain(
      'On-call runbook',
    );
    expect((await searchAs('chloe@acme.test', 'on-call runbook')).hits.map((h) => h.name)).not.toContain(
      'On-call runbook',
    );
    const facets = (await searchAs('admin@acme.test', 'expense')).hitCounts.byApp;
    expect(Object.keys(facets).length).toBeGreaterThanOrEqual(3);
  });
});
