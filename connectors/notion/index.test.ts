import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidCredentialsError,
  PermissionMismatchError,
  createConnectorContext,
  type Cursor,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { collect, fakeClock, runConnectorConformance, type FakeClock } from '../sdk/testing';
import { blocks, startNotionFake, type BlockSpec, type NotionFake } from './fake';
import { MAX_BLOCK_DEPTH, MEMBERS_GROUP, notionConnectorFor } from './index';

let notion: NotionFake;
let connector: ReturnType<typeof notionConnectorFor>;

beforeEach(async () => {
  notion = await startNotionFake({ maxPageSize: 3 });
  connector = notionConnectorFor(notion.url);
});

afterEach(async () => {
  await notion.close();
});

const config = (extra: Record<string, unknown> = {}) => ({ batchSize: 2, pageSize: 3, ...extra });

function context(options: { token?: string; config?: Record<string, unknown>; clock?: FakeClock } = {}) {
  return createConnectorContext(connector, {
    credentials: { access_token: options.token ?? notion.token },
    config: config(options.config),
    // Notion's pace of ~3 requests/s is kept on this clock, so it costs the tests no time.
    clock: options.clock ?? fakeClock(Date.now()),
    random: () => 0,
  });
}

const documentsOf = (batches: readonly SyncBatch[]): SourceDocument[] =>
  batches.flatMap((batch) => batch.documents);
const byTitle = (batches: readonly SyncBatch[]) =>
  Object.fromEntries(documentsOf(batches).map((document) => [document.title, document]));
const titles = (batches: readonly SyncBatch[]) => documentsOf(batches).map((document) => document.title);

/** What the fixture workspace indexes: everything shared with the integration within the three-year window. */
const FIXTURE_TITLES = [
  'Engineering handbook',
  'On-call rotation',
  'Roadmap tasks',
  'Ship search',
  'Fix stuck syncs',
  'Press kit',
];

describe('notion connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(connector, {
      fakeServer: notion.server,
      credentials: { access_token: notion.token },
      config: config(),
      changeSource: () => {
        notion.upsertPage({
          key: 'oncall',
          title: 'On-call rotation',
          parent: { page: 'handbook' },
          blocks: [blocks.paragraph('The rotation changes every Tuesday.')],
        });
        notion.upsertPage({ key: 'retro', title: 'Retro notes', parent: { page: 'handbook' } });
        notion.trash('press');
        return {
          changed: [notion.idOf('oncall'), notion.idOf('retro')],
          deleted: [notion.idOf('press')],
        };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: FIXTURE_TITLES.length },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      // One membership page per users.list page (the fake answers three users a page).
      groups: 2,
    });
  });

  it('indexes pages with their blocks flattened in order, database rows with their properties, and comments', async () => {
    const batches = await collect(connector.fullSync(context()));
    expect(titles(batches).sort()).toEqual([...FIXTURE_TITLES].sort());
    const docs = byTitle(batches);
    expect(docs['Engineering handbook']?.body).toBe(
      [
        '## How we work',
        'Deploys happen on weekdays.',
        '- Write tests',
        '  - Beside the code',
        '1. Open a pull request',
        '2. Get a review',
        '[x] Read the handbook',
        'Escalation',
        '  Page the on-call engineer.',
        'npm test',
        '  | Service | Owner |',
        '  | search | Grace |',
        '---',
        'Page: On-call rotation',
        'Database: Roadmap tasks',
        '',
        'Comments:',
        'Reviewed by the platform team.',
      ].join('\n'),
    );
    expect(docs['Ship search']).toMatchObject({
      body: 'Status: In progress\nPoints: 5\nNotes on ship search.',
      parentExternalId: notion.idOf('tasks'),
      fileType: 'page',
      extra: { kind: 'database row' },
    });
    expect(docs['Roadmap tasks']).toMatchObject({
      body: 'What the platform team ships this quarter.\nProperties: Name, Status, Points',
      parentExternalId: notion.idOf('handbook'),
      fileType: 'database',
    });
    expect(docs['On-call rotation']).toMatchObject({
      parentExternalId: notion.idOf('handbook'),
      url: expect.stringMatching(/^https:\/\/www\.notion\.so\/On-call-rotation-[0-9a-f]{32}$/),
    });
  });

  it('gives every document to the workspace’s members only, even a page shared to the web', async () => {
    const docs = documentsOf(await collect(connector.fullSync(context())));
    expect(new Set(docs.map((document) => JSON.stringify(document.acl)))).toEqual(
      new Set([JSON.stringify([MEMBERS_GROUP])]),
    );
    const memberships = (await collect(connector.permissions!(context()))).flat();
    expect(new Set(memberships.map((membership) => membership.group))).toEqual(new Set([MEMBERS_GROUP]));
    expect(memberships.flatMap((membership) => membership.members)).toEqual([
      'user:ada@example.com',
      'user:grace@example.com',
      'user:linus@example.com',
    ]);
    // Gus is a guest: users.list leaves guests out, so they are in no group and read nothing.
    notion.setRole('grace', 'guest');
    const after = (await collect(connector.permissions!(context()))).flat();
    expect(after.flatMap((group) => group.members)).not.toContain('user:grace@example.com');
  });

  it('walks newest first to the three-year window and reports how far back it reached', async () => {
    const ctx = context();
    const batches = await collect(connector.fullSync(ctx));
    expect(titles(batches)).not.toContain('Offsite 2019');
    const reached = batches.map((batch) => batch.progress?.syncedFrom?.getTime() ?? 0);
    expect(reached).toEqual([...reached].sort((a, b) => b - a));
    expect(batches.at(-1)?.progress?.syncedFrom).toEqual(ctx.syncWindowStart);
    // The old page is still Notion's: pruning must not delete it should it come back into the window.
    const listed = (await collect(connector.listIds(ctx))).flat();
    expect(listed).toContain(notion.idOf('old'));
    expect(listed).not.toContain(notion.idOf('salaries'));
  });

  it('sees an edit made in the same minute as the last sync, and only that', async () => {
    const first = await collect(connector.fullSync(context()));
    notion.upsertPage({ key: 'a', title: 'Alpha', parent: { page: 'handbook' } });
    const second = await collect(connector.incrementalSync(context(), first.at(-1)!.cursor));
    expect(titles(second)).toEqual(['Alpha']);
    // Same minute, new content: Notion's last_edited_time does not move, the fingerprint does.
    notion.upsertPage({ key: 'a', title: 'Alpha', parent: { page: 'handbook' }, comments: ['Looks good'] });
    const third = await collect(connector.incrementalSync(context(), second.at(-1)!.cursor));
    expect(documentsOf(third).map((document) => document.body)).toEqual(['\nComments:\nLooks good']);
    const fourth = await collect(connector.incrementalSync(context(), third.at(-1)!.cursor));
    expect(titles(fourth)).toEqual([]);
  });

  it('delivers a move with its new parent, and reports a page that went out of reach as deleted', async () => {
    const first = await collect(connector.fullSync(context()));
    notion.move('oncall', { page: 'press' });
    notion.trash('task-sync');
    const batches = await collect(connector.incrementalSync(context(), first.at(-1)!.cursor));
    expect(byTitle(batches)['On-call rotation']?.parentExternalId).toBe(notion.idOf('press'));
    const listed = (await collect(connector.listIds(context()))).flat();
    expect(listed).not.toContain(notion.idOf('task-sync'));

    // Unsharing leaves no trace in search's order: the permission sync finds it gone and says nobody reads it.
    notion.unshare('press');
    const acls = await connector.documentAcls!(context(), [
      notion.idOf('handbook'),
      notion.idOf('press'),
      notion.idOf('oncall'),
    ]);
    expect(acls).toEqual([
      { externalId: notion.idOf('handbook'), acl: [MEMBERS_GROUP] },
      { externalId: notion.idOf('press'), acl: [] },
      { externalId: notion.idOf('oncall'), acl: [] },
    ]);
  });

  it('stops nesting at the depth cap', async () => {
    let nested: BlockSpec = blocks.paragraph(`level ${MAX_BLOCK_DEPTH + 2}`);
    for (let level = MAX_BLOCK_DEPTH + 1; level >= 1; level--)
      nested = blocks.toggle(`level ${level}`, [nested]);
    notion.upsertPage({ key: 'deep', title: 'Deep', parent: { page: 'handbook' }, blocks: [nested] });
    const docs = byTitle(await collect(connector.fullSync(context())));
    const lines = docs['Deep']?.body.split('\n') ?? [];
    expect(lines).toHaveLength(MAX_BLOCK_DEPTH);
    expect(lines.at(-1)).toBe(`${'  '.repeat(MAX_BLOCK_DEPTH - 1)}level ${MAX_BLOCK_DEPTH}`);
  });

  it('rides out a 429 storm, waiting as long as Notion’s Retry-After asks', async () => {
    const clock = fakeClock(Date.now());
    notion.rateLimitNext(4, 7);
    const batches = await collect(connector.fullSync(context({ clock })));
    expect(titles(batches).sort()).toEqual([...FIXTURE_TITLES].sort());
    expect(clock.sleeps.filter((ms) => ms >= 7000)).toHaveLength(4);
  });

  it('raises InvalidCredentialsError when the workspace revokes the token', async () => {
    const first = await collect(connector.fullSync(context()));
    notion.revokeToken();
    await expect(collect(connector.incrementalSync(context(), first.at(-1)!.cursor))).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    await expect(connector.validate(context())).rejects.toBeInstanceOf(InvalidCredentialsError);
  });

  it('validates the token and that members can be told from guests', async () => {
    await expect(connector.validate(context())).resolves.toEqual({
      workspaceName: 'Acme',
      appUserId: notion.idOf('bot'),
      email: 'ada@example.com',
    });
    notion.setCapabilities({ userEmails: false });
    await expect(connector.validate(context())).rejects.toBeInstanceOf(PermissionMismatchError);
    notion.setCapabilities({ userEmails: true, users: false });
    await expect(connector.validate(context())).rejects.toBeInstanceOf(PermissionMismatchError);
    await expect(collect(connector.permissions!(context()))).rejects.toBeInstanceOf(PermissionMismatchError);
  });

  it('indexes without comments when the integration may not read them', async () => {
    notion.setCapabilities({ comments: false });
    const docs = byTitle(await collect(connector.fullSync(context())));
    expect(docs['Engineering handbook']?.body).not.toContain('Comments:');
    expect(Object.keys(docs).sort()).toEqual([...FIXTURE_TITLES].sort());
  });

  it('resumes a walk cut short from its cursor and ends with exactly the fixture', async () => {
    const full = await collect(connector.fullSync(context()));
    const cut = full[1]!.cursor as Cursor;
    notion.upsertPage({ key: 'late', title: 'Late page', parent: { page: 'handbook' } });
    const resumed = await collect(connector.incrementalSync(context(), cut));
    const delivered = new Set([...titles(full.slice(0, 2)), ...titles(resumed)]);
    expect([...delivered].sort()).toEqual([...FIXTURE_TITLES, 'Late page'].sort());
  });

  it('starts over when handed a cursor it cannot read', async () => {
    const batches = await collect(connector.incrementalSync(context(), { from: 'another version' }));
    expect(titles(batches)).toHaveLength(FIXTURE_TITLES.length);
  });
});
