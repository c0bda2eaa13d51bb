import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PROMPT_TITLE_MAX_CHARS,
  PROMPT_TEMPLATE_MAX_CHARS,
  PROMPTS_RECOMMENDED,
  type Prompt,
  type PromptResponse,
  type PromptsResponse,
} from '../../../common/api/prompts';
import { prompts, type Org, type User } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let acme: Org;
let ada: User; // admin of acme
let ben: User;
let cy: User;
let olga: User; // admin of another org
const tokens = new Map<User, string>();

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  acme = await createOrg(db, { domain: 'acme.test' });
  const other = await createOrg(db, { domain: 'other.test' });
  ada = await createUser(db, acme, { email: 'ada@acme.test', admin: true, firstName: 'Ada' });
  ben = await createUser(db, acme, { email: 'ben@acme.test', firstName: 'Ben' });
  cy = await createUser(db, acme, { email: 'cy@acme.test' });
  olga = await createUser(db, other, { email: 'olga@other.test', admin: true });
  for (const user of [ada, ben, cy, olga])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
});
afterAll(() => server.close());

const call = (user: User, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  server.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: { authorization: `Bearer ${tokens.get(user)}` },
    payload,
  });

async function create(user: User, body: object): Promise<Prompt> {
  const res = await call(user, 'POST', 'prompts', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PromptResponse>().prompt;
}

const list = async (user: User, query = '') => {
  const res = await call(user, 'GET', `prompts${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PromptsResponse>().prompts;
};

const stored = () =>
  server.store.db.select().from(prompts).where(eq(prompts.orgId, acme.id)).orderBy(prompts.id);

describe('workflows', () => {
  it('creates, reads, edits and deletes a member’s own workflow', async () => {
    const made = await create(ben, {
      title: '  Weekly summary ',
      template: 'Summarise what changed in {project} this week',
      preferred_llm: 'openai-gpt-4.1',
    });
    expect(made).toMatchObject({
      title: 'Weekly summary',
      visibility: 'PRIVATE',
      is_recommended: false,
      use_count: 0,
      preferred_llm: 'openai-gpt-4.1',
      is_mine: true,
      can_edit: true,
      author: { email: 'ben@acme.test', display_name: 'Ben' },
    });

    const read = await call(ben, 'GET', `prompts/promptsById/${made.id}`);
    expect(read.json<PromptResponse>().prompt.template).toBe('Summarise what changed in {project} this week');

    const edited = await call(ben, 'PATCH', `prompts/${made.id}`, {
      title: 'Weekly digest',
      preferred_llm: null,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<PromptResponse>().prompt).toMatchObject({
      title: 'Weekly digest',
      preferred_llm: null,
    });

    expect((await list(ben, '?filter=mine')).map((prompt) => prompt.title)).toContain('Weekly digest');
    expect((await call(ben, 'DELETE', `prompts/${made.id}`)).statusCode).toBe(200);
    expect((await call(ben, 'GET', `prompts/promptsById/${made.id}`)).statusCode).toBe(404);
    expect((await stored()).some((row) => row.id === made.id)).toBe(false);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const kept = await create(ben, { title: 'Kept', template: 'Keep me' });
    const before = await stored();
    for (const body of [
      {},
      { title: '', template: 'x' },
      { title: '   ', template: 'x' },
      { title: 'x', template: ' ' },
      { title: 'x'.repeat(PROMPT_TITLE_MAX_CHARS + 1), template: 'x' },
      { title: 'x', template: 'x'.repeat(PROMPT_TEMPLATE_MAX_CHARS + 1) },
      { title: 'x', template: 'x', preferred_llm: 'gpt-99' },
      { title: 'x', template: 'x', visibility: 'PUBLIC' },
      { title: 'x', template: 'x', extra: true },
      { title: 42, template: 'x' },
    ]) {
      const res = await call(ben, 'POST', 'prompts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    for (const body of [{}, { title: '' }, { preferred_llm: 'nope' }, { visibility: 'EVERYONE' }, { x: 1 }]) {
      const res = await call(ben, 'PATCH', `prompts/${kept.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call(ben, 'GET', 'prompts/promptsById/not-a-uuid')).statusCode).toBe(400);
    // An admin recommending a private workflow is refused as bad input too.
    const own = await create(ada, { title: 'Ada private', template: 'Mine' });
    const refused = await call(ada, 'PATCH', `prompts/${own.id}`, { is_recommended: true });
    expect(refused.statusCode).toBe(400);
    expect(
      (await call(ada, 'POST', 'prompts', { title: 'y', template: 'y', is_recommended: true })).statusCode,
    ).toBe(400);
    const after = await stored();
    expect(after.filter((row) => row.id !== own.id)).toEqual(before);
    expect(after.find((row) => row.id === own.id)?.isRecommended).toBe(false);
  });

  it('keeps a private workflow from other members, admins included, and lets only its author change it', async () => {
    const secret = await create(ben, { title: 'Secret plan', template: 'Only Ben' });
    for (const user of [cy, ada]) {
      expect((await list(user)).some((prompt) => prompt.id === secret.id)).toBe(false);
      expect((await call(user, 'GET', `prompts/promptsById/${secret.id}`)).statusCode).toBe(404);
      expect((await call(user, 'PATCH', `prompts/${secret.id}`, { title: 'Mine now' })).statusCode).toBe(404);
      expect((await call(user, 'DELETE', `prompts/${secret.id}`)).statusCode).toBe(404);
      expect((await call(user, 'POST', `prompts/prompt_used/${secret.id}`)).statusCode).toBe(404);
    }
    const row = (await stored()).find((prompt) => prompt.id === secret.id);
    expect(row).toMatchObject({ title: 'Secret plan', useCount: 0 });
  });

  it('shares a workflow with the org: every member reads and uses it, only its author and admins change it', async () => {
    const shared = await create(ben, {
      title: 'Release notes',
      template: 'Draft release notes',
      visibility: 'ORG',
    });
    const seen = (await list(cy)).find((prompt) => prompt.id === shared.id);
    expect(seen).toMatchObject({ is_mine: false, can_edit: false });
    expect((await call(cy, 'PATCH', `prompts/${shared.id}`, { title: 'Hijacked' })).statusCode).toBe(403);
    expect((await call(cy, 'DELETE', `prompts/${shared.id}`)).statusCode).toBe(403);
    expect((await stored()).find((row) => row.id === shared.id)?.title).toBe('Release notes');

    expect((await list(ada)).find((prompt) => prompt.id === shared.id)?.can_edit).toBe(true);
    const byAdmin = await call(ada, 'PATCH', `prompts/${shared.id}`, { title: 'Release notes (v2)' });
    expect(byAdmin.json<PromptResponse>().prompt.title).toBe('Release notes (v2)');
    // Who sees it stays its author's choice.
    expect((await call(ada, 'PATCH', `prompts/${shared.id}`, { visibility: 'PRIVATE' })).statusCode).toBe(
      403,
    );

    // Another org sees nothing of it, and can do nothing to it.
    expect(await list(olga)).toEqual([]);
    expect((await call(olga, 'GET', 'prompts/recommended')).json<PromptsResponse>().prompts).toEqual([]);
    for (const [method, url] of [
      ['GET', `prompts/promptsById/${shared.id}`],
      ['PATCH', `prompts/${shared.id}`],
      ['DELETE', `prompts/${shared.id}`],
      ['POST', `prompts/prompt_used/${shared.id}`],
    ] as const) {
      const res = await call(olga, method, url, method === 'PATCH' ? { title: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await stored()).find((row) => row.id === shared.id)).toMatchObject({
      title: 'Release notes (v2)',
      useCount: 0,
    });
  });

  it('lets only admins recommend, and answers the first 8 recommended, most used first', async () => {
    const shared = await create(cy, {
      title: 'Cy shared',
      template: 'Ask about onboarding',
      visibility: 'ORG',
    });
    const refused = await call(cy, 'PATCH', `prompts/${shared.id}`, { is_recommended: true });
    expect(refused.statusCode).toBe(403);
    expect(
      (
        await call(cy, 'POST', 'prompts', {
          title: 'z',
          template: 'z',
          visibility: 'ORG',
          is_recommended: true,
        })
      ).statusCode,
    ).toBe(403);
    expect((await stored()).find((row) => row.id === shared.id)?.isRecommended).toBe(false);

    const recommended: Prompt[] = [];
    for (let n = 0; n < PROMPTS_RECOMMENDED + 2; n++)
      recommended.push(
        await create(ada, {
          title: `Rec ${n}`,
          template: `Template ${n}`,
          visibility: 'ORG',
          is_recommended: true,
        }),
      );
    expect((await call(ada, 'PATCH', `prompts/${shared.id}`, { is_recommended: true })).statusCode).toBe(200);

    // Uses move a workflow up: Rec 9 used twice, Cy's once.
    const used = async (prompt: Prompt) => {
      const res = await call(ben, 'POST', `prompts/prompt_used/${prompt.id}`);
      expect(res.statusCode).toBe(200);
      return res.json<{ use_count: number }>().use_count;
    };
    expect(await used(recommended[9]!)).toBe(1);
    expect(await used(recommended[9]!)).toBe(2);
    expect(await used(shared)).toBe(1);

    const row = (await call(ben, 'GET', 'prompts/recommended')).json<PromptsResponse>().prompts;
    expect(row).toHaveLength(PROMPTS_RECOMMENDED);
    expect(row.map((prompt) => prompt.title)).toEqual([
      'Rec 9',
      'Cy shared',
      'Rec 0',
      'Rec 1',
      'Rec 2',
      'Rec 3',
      'Rec 4',
      'Rec 5',
    ]);
    expect(row.every((prompt) => prompt.is_recommended && prompt.visibility === 'ORG')).toBe(true);
    const onlyRecommended = await list(ben, '?filter=recommended');
    expect(onlyRecommended).toHaveLength(PROMPTS_RECOMMENDED + 3);

    // Its author taking it back to private withdraws the recommendation.
    const back = await call(cy, 'PATCH', `prompts/${shared.id}`, { visibility: 'PRIVATE' });
    expect(back.json<PromptResponse>().prompt).toMatchObject({
      visibility: 'PRIVATE',
      is_recommended: false,
    });
    const after = (await call(ben, 'GET', 'prompts/recommended')).json<PromptsResponse>().prompts;
    expect(after.some((prompt) => prompt.id === shared.id)).toBe(false);
  });

  it('searches titles and templates, with LIKE characters taken literally', async () => {
    await create(cy, { title: 'Percent report', template: 'Growth of 100% this quarter' });
    await create(cy, { title: 'Plain report', template: 'Growth of 100 this quarter' });
    const found = await list(cy, `?query=${encodeURIComponent('100%')}`);
    expect(found.map((prompt) => prompt.title)).toEqual(['Percent report']);
    const byTitle = await list(cy, '?query=PLAIN&filter=mine');
    expect(byTitle.map((prompt) => prompt.title)).toEqual(['Plain report']);
    expect((await call(cy, 'GET', 'prompts?filter=everything')).statusCode).toBe(400);
  });

  it('refuses callers who are not signed in', async () => {
    for (const url of ['/api/v1/prompts', '/api/v1/prompts/recommended'])
      expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/prompts',
      payload: { title: 'x', template: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });
});
