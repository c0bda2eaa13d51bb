import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidCredentialsError,
  PermissionMismatchError,
  RateLimitedError,
  createConnectorContext,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { collect, fakeClock, runConnectorConformance, type FakeClock } from '../sdk/testing';
import { startSlackFake, type SlackFake } from './fake';
import { ADMIN, EXTERNAL, GUEST, MEMBER, credentialsFor, seedWorkspace, type Fixture } from './fixture';
import { slackConnector } from './index';

let fake: SlackFake;
let fixture: Fixture;
let clock: FakeClock;

beforeEach(async () => {
  fake = await startSlackFake({ pageSize: 2 });
  fixture = seedWorkspace(fake);
  clock = fakeClock(Date.now());
});
afterEach(async () => {
  await fake.close();
});

const context = (options: { credentials?: unknown; signal?: AbortSignal } = {}) =>
  createConnectorContext(slackConnector, {
    credentials: options.credentials ?? credentialsFor(fake),
    config: { baseUrl: fake.apiUrl },
    clock,
    random: () => 0,
    signal: options.signal,
  });

const docs = (batches: readonly SyncBatch[]) => batches.flatMap((batch) => batch.documents);
const byId = (batches: readonly SyncBatch[]) =>
  new Map(docs(batches).map((doc): [string, SourceDocument] => [doc.externalId, doc]));
const id = (channel: string, ts: string) => `${channel}/${ts}`;
/** A file as Slack attaches it to the message that shares it. */
const sharedFile = (fileId: string, name: string) => ({
  id: fileId,
  name,
  title: name,
  filetype: name.split('.').at(-1),
  permalink: `https://acme.slack.com/files/UADA/${fileId}/${name}`,
  user: ADMIN,
  created: Math.floor(Date.now() / 1000),
});

describe('slack connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(slackConnector, {
      fakeServer: fake.server,
      credentials: credentialsFor(fake),
      config: { baseUrl: fake.apiUrl },
      changeSource: () => {
        fake.edit(fixture.general, fixture.ts.hello, 'Hello Grace, the roadmap moved to Q3');
        fake.remove(fixture.general, fixture.ts.old);
        const posted = fake.post(fixture.eng, { user: ADMIN, text: 'Vault rollout is done' });
        return {
          changed: [id(fixture.general, fixture.ts.hello), id(fixture.eng, posted.ts ?? '')],
          deleted: [id(fixture.general, fixture.ts.old)],
        };
      },
    });
    expect(report.resumedMidSync).toBe(true);
    expect(report.groups).toBe(3);
  });

  it('indexes the channels the app is in, a thread as one document, files of their own, within three years', async () => {
    const found = byId(await collect(slackConnector.fullSync(context())));
    const { general, eng, ts } = fixture;
    expect([...found.keys()].sort()).toEqual(
      [
        id(general, ts.hello),
        id(general, ts.question),
        id(general, ts.old),
        id(eng, ts.spec),
        `${id(eng, ts.spec)}/${fixture.specFileId}`,
        id(eng, ts.design),
      ].sort(),
    );
    const thread = found.get(id(general, ts.question));
    expect(thread).toMatchObject({
      title: '#general: Where do we deploy the billing service?',
      fileType: 'thread',
      objectType: 'Messages',
      url: `https://acme.slack.com/archives/${general}/p${ts.question.replace('.', '')}`,
      author: { name: 'Grace Hopper', email: 'grace@example.com' },
    });
    expect(thread?.body).toBe(
      'Grace Hopper: Where do we deploy the billing service?\n\nAda Lovelace: On the blue cluster\n\nGrace Hopper: Thanks & noted',
    );
    expect(found.get(id(general, ts.hello))?.body).toBe(
      'Ada Lovelace: Hello @Grace Hopper, the roadmap is ready',
    );
    expect(found.get(`${id(eng, ts.spec)}/${fixture.specFileId}`)).toMatchObject({
      title: 'Storage spec',
      objectType: 'Files',
      fileType: 'pdf',
      url: 'https://acme.slack.com/files/UADA/F0SPEC/storage-spec.pdf',
      parentExternalId: id(eng, ts.spec),
    });
  });

  it('reports progress through the channels and the window, ending at the whole', async () => {
    const shares = (await collect(slackConnector.fullSync(context()))).map((batch) => batch.progress?.share);
    expect(shares.length).toBeGreaterThan(2);
    expect(shares.every((share) => share !== undefined && share >= 0 && share <= 1)).toBe(true);
    expect(shares).toEqual([...shares].sort((a = 0, b = 0) => a - b));
    expect(shares.at(-1)).toBe(1);
    expect(shares[0]).toBeLessThan(1);
  });

  it('lets a public channel be read by its members and the workspace’s full members, a private one by its members only', async () => {
    const found = byId(await collect(slackConnector.fullSync(context())));
    expect(found.get(id(fixture.general, fixture.ts.hello))?.acl).toEqual([
      'group:slack:C0GENERAL',
      'group:slack:workspace-full-members',
    ]);
    expect(found.get(id(fixture.eng, fixture.ts.design))?.acl).toEqual(['group:slack:G0ENG']);
  });

  it('names each channel’s members and the full members, leaving out guests, the deactivated and bots', async () => {
    const groups = (await collect(slackConnector.permissions!(context()))).flat();
    expect(Object.fromEntries(groups.map((group) => [group.group, [...group.members].sort()]))).toEqual({
      'group:slack:workspace-full-members': ['user:ada@example.com', 'user:grace@example.com'],
      'group:slack:C0GENERAL': ['user:ada@example.com', 'user:grace@example.com'],
      // Gus is a guest invited here; Erin is a Slack Connect member, found through users.info.
      'group:slack:G0ENG': ['user:ada@example.com', 'user:erin@partner.test', 'user:gus@example.com'],
    });
    expect(fake.server.requests.some((r) => r.path === '/api/users.info' && r.body.includes(EXTERNAL))).toBe(
      true,
    );
  });

  it('re-reads a renamed channel whole and a channel made private with its new readers', async () => {
    const full = await collect(slackConnector.fullSync(context()));
    fake.rename(fixture.general, 'announcements');
    fake.makePrivate(fixture.general);
    const next = byId(await collect(slackConnector.incrementalSync(context(), full.at(-1)!.cursor)));
    expect(next.get(id(fixture.general, fixture.ts.question))).toMatchObject({
      title: '#announcements: Where do we deploy the billing service?',
      acl: ['group:slack:C0GENERAL'],
    });
    expect(next.get(id(fixture.general, fixture.ts.old))).toBeDefined();
    expect([...next.keys()].filter((key) => key.startsWith(fixture.eng))).toEqual([]);
    const acls = await slackConnector.documentAcls!(context(), [
      id(fixture.general, fixture.ts.hello),
      id(fixture.random, fixture.ts.lunch),
    ]);
    // #random: the app is not in it, so Slack will not say, and the id is left to pruning.
    expect(acls).toEqual([
      {
        externalId: id(fixture.general, fixture.ts.hello),
        acl: ['group:slack:C0GENERAL'],
      },
    ]);
  });

  it('delivers a new reply and an edited reply of a recent thread, and nothing else', async () => {
    const full = await collect(slackConnector.fullSync(context()));
    fake.reply(fixture.general, fixture.ts.question, { user: GUEST, text: 'Blue cluster is being retired' });
    const first = await collect(slackConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(docs(first).map((doc) => doc.externalId)).toEqual([id(fixture.general, fixture.ts.question)]);
    expect(docs(first)[0]?.body).toContain('Gus Guest: Blue cluster is being retired');

    const reply = fake.channels.get(fixture.general)!.replies.get(fixture.ts.question)![0]!;
    fake.edit(fixture.general, reply.ts ?? '', 'On the green cluster');
    const second = await collect(slackConnector.incrementalSync(context(), first.at(-1)!.cursor));
    expect(docs(second).map((doc) => doc.body)).toEqual([
      expect.stringContaining('Ada Lovelace: On the green cluster'),
    ]);
  });

  it('indexes a file shared in a thread’s reply as a file of the channel, its thread as its parent', async () => {
    const shared = sharedFile('F0NUMBERS', 'numbers.csv');
    const reply = fake.reply(fixture.general, fixture.ts.question, {
      user: ADMIN,
      text: 'The latency numbers',
      files: [shared],
    });
    const found = byId(await collect(slackConnector.fullSync(context())));
    const fileDoc = `${id(fixture.general, reply.ts ?? '')}/F0NUMBERS`;
    expect(found.get(fileDoc)).toMatchObject({
      title: 'numbers.csv',
      objectType: 'Files',
      fileType: 'csv',
      url: shared.permalink,
      author: { name: 'Ada Lovelace', email: 'ada@example.com' },
      // Readable exactly as the thread is: by #general's members and the workspace's full members.
      acl: ['group:slack:C0GENERAL', 'group:slack:workspace-full-members'],
      parentExternalId: id(fixture.general, fixture.ts.question),
    });
    expect(found.get(fileDoc)?.body).toContain('The latency numbers');
    expect(found.get(id(fixture.general, fixture.ts.question))?.body).toContain(
      `Ada Lovelace: The latency numbers\n[numbers.csv](${shared.permalink})`,
    );
    expect((await collect(slackConnector.listIds(context()))).flat()).toContain(fileDoc);
  });

  it('prunes a thread reply’s file once the file or the reply is deleted', async () => {
    const kept = fake.reply(fixture.general, fixture.ts.question, {
      user: ADMIN,
      text: 'Two files',
      files: [sharedFile('F0KEPT', 'kept.pdf'), sharedFile('F0GONE', 'gone.pdf')],
    });
    const dropped = fake.reply(fixture.general, fixture.ts.question, {
      user: MEMBER,
      text: 'One more',
      files: [sharedFile('F0LAST', 'last.pdf')],
    });
    const listed = async () => (await collect(slackConnector.listIds(context()))).flat();
    const keptId = `${id(fixture.general, kept.ts ?? '')}/F0KEPT`;
    const goneId = `${id(fixture.general, kept.ts ?? '')}/F0GONE`;
    const lastId = `${id(fixture.general, dropped.ts ?? '')}/F0LAST`;
    expect(await listed()).toEqual(expect.arrayContaining([keptId, goneId, lastId]));

    fake.deleteFile('F0GONE');
    fake.removeReply(fixture.general, dropped.ts ?? '');
    const after = await listed();
    expect(after).toContain(keptId);
    expect(after).not.toContain(goneId);
    expect(after).not.toContain(lastId);
    expect(after).toContain(id(fixture.general, fixture.ts.question));
  });

  it('removes a file deleted from a thread’s reply at the next incremental sync, the reply staying', async () => {
    const reply = fake.reply(fixture.general, fixture.ts.question, {
      user: ADMIN,
      text: 'Two files',
      files: [sharedFile('F0KEPT', 'kept.pdf'), sharedFile('F0GONE', 'gone.pdf')],
    });
    const other = fake.reply(fixture.general, fixture.ts.question, {
      user: MEMBER,
      text: 'One more',
      files: [sharedFile('F0LAST', 'last.pdf')],
    });
    const keptId = `${id(fixture.general, reply.ts ?? '')}/F0KEPT`;
    const goneId = `${id(fixture.general, reply.ts ?? '')}/F0GONE`;
    const lastId = `${id(fixture.general, other.ts ?? '')}/F0LAST`;
    const full = await collect(slackConnector.fullSync(context()));
    expect(byId(full).has(goneId)).toBe(true);

    // Slack's two signals: a tombstone in the file's place, and the entry gone from the reply's files.
    fake.deleteFile('F0GONE');
    const otherReply = fake.channels.get(fixture.general)!.replies.get(fixture.ts.question)![3]!;
    expect(otherReply.ts).toBe(other.ts);
    otherReply.files = [];
    const next = await collect(slackConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(next.flatMap((batch) => batch.deletedExternalIds ?? []).sort()).toEqual([goneId, lastId].sort());
    expect(docs(next).map((doc) => doc.externalId)).toEqual([id(fixture.general, fixture.ts.question)]);
    const thread = docs(next)[0]?.body ?? '';
    expect(thread).toContain('Ada Lovelace: Two files\n[kept.pdf]');
    expect(thread).not.toContain('gone.pdf');
    expect(thread).not.toContain('last.pdf');
    expect(thread).toContain('Grace Hopper: One more');

    const after = await collect(slackConnector.incrementalSync(context(), next.at(-1)!.cursor));
    expect(after.flatMap((batch) => batch.deletedExternalIds ?? [])).toEqual([]);
    expect(docs(after)).toEqual([]);
    expect((await collect(slackConnector.listIds(context()))).flat()).toContain(keptId);
  });

  it('delivers a new reply with a file as its thread and its file, fetching no unchanged file again', async () => {
    const full = await collect(slackConnector.fullSync(context()));
    // The spec's message shares a file of its own: a reply to it must not bring that file again.
    const reply = fake.reply(fixture.eng, fixture.ts.spec, {
      user: ADMIN,
      text: 'The revised figures',
      files: [sharedFile('F0FIGURES', 'figures.pdf')],
    });
    const next = await collect(slackConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(docs(next).map((doc) => doc.externalId)).toEqual([
      id(fixture.eng, fixture.ts.spec),
      `${id(fixture.eng, reply.ts ?? '')}/F0FIGURES`,
    ]);
    expect(docs(next)[1]?.acl).toEqual(['group:slack:G0ENG']);
  });

  it('completes a file shared over Slack Connect with files.info, and leaves out one Slack no longer has', async () => {
    // How Slack shows another organisation's file in a message: its id, and where to ask for the rest.
    const stub = (fileId: string) => ({
      id: fileId,
      mode: 'file_access',
      file_access: 'check_file_info',
      created: 0,
      timestamp: 0,
      user: '',
    });
    const plan = sharedFile('F0PARTNER', 'partner-plan.pdf');
    fake.describeFile(plan);
    const reply = fake.reply(fixture.eng, fixture.ts.design, {
      user: EXTERNAL,
      text: 'Our plan, and an old draft',
      files: [stub('F0PARTNER'), stub('F0UNKNOWN')],
    });
    const found = byId(await collect(slackConnector.fullSync(context())));
    expect(found.get(`${id(fixture.eng, reply.ts ?? '')}/F0PARTNER`)).toMatchObject({
      title: 'partner-plan.pdf',
      url: plan.permalink,
      acl: ['group:slack:G0ENG'],
      parentExternalId: id(fixture.eng, fixture.ts.design),
    });
    expect(found.has(`${id(fixture.eng, reply.ts ?? '')}/F0UNKNOWN`)).toBe(false);
    const thread = found.get(id(fixture.eng, fixture.ts.design))?.body;
    expect(thread).toContain(`Erin: Our plan, and an old draft\n[partner-plan.pdf](${plan.permalink})`);
    expect(thread).not.toContain('F0UNKNOWN');
  });

  it('lists the ids of what exists, so deleted messages and channels are pruned', async () => {
    fake.remove(fixture.general, fixture.ts.hello);
    fake.deleteChannel(fixture.eng);
    const listed = (await collect(slackConnector.listIds(context()))).flat().sort();
    expect(listed).toEqual(
      [id(fixture.general, fixture.ts.question), id(fixture.general, fixture.ts.old)].sort(),
    );
  });

  it('waits out a storm of 429s as Slack’s Retry-After asks, and hands back a longer one to the engine', async () => {
    fake.server.failNext(4, { kind: 'rateLimit', retryAfter: 30 }, { path: '/api/conversations.history' });
    const found = byId(await collect(slackConnector.fullSync(context())));
    expect(found.size).toBe(6);
    expect(clock.sleeps.filter((ms) => ms === 30_000).length).toBeGreaterThanOrEqual(4);

    fake.server.failNext(10, { kind: 'rateLimit', retryAfter: 30 }, { path: '/api/conversations.history' });
    await expect(collect(slackConnector.fullSync(context()))).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('skips a thread deleted between reading the channel and reading its replies', async () => {
    fake.server.failNext(
      1,
      { kind: 'status', status: 200, json: { ok: false, error: 'thread_not_found' } },
      { path: '/api/conversations.replies' },
    );
    const found = byId(await collect(slackConnector.fullSync(context())));
    expect(found.has(id(fixture.general, fixture.ts.question))).toBe(false);
    expect(found.size).toBe(5);
  });

  it('reports an expired or revoked token as invalid credentials', async () => {
    fake.expireToken();
    await expect(collect(slackConnector.fullSync(context()))).rejects.toBeInstanceOf(InvalidCredentialsError);
  });

  it('refuses an install by someone who is not a Workspace Admin, in the dialog’s words', async () => {
    await expect(
      slackConnector.validate(
        context({ credentials: { access_token: fake.token, authed_user: { id: MEMBER } } }),
      ),
    ).rejects.toThrow(new PermissionMismatchError('The connecting user must be a Workspace Admin in Slack.'));
    await expect(slackConnector.validate(context())).resolves.toEqual({
      workspaceName: 'Acme',
      appUserId: ADMIN,
      email: 'ada@example.com',
    });
  });

  it('resumes an interrupted sync from its cursor without reading again what was committed', async () => {
    const whole = await collect(slackConnector.fullSync(context()));
    const controller = new AbortController();
    const committed: SyncBatch[] = [];
    await expect(async () => {
      for await (const batch of slackConnector.fullSync(context({ signal: controller.signal }))) {
        committed.push(batch);
        if (committed.length === 2) controller.abort();
      }
    }).rejects.toThrow();
    fake.server.clearLog();
    const rest = await collect(slackConnector.incrementalSync(context(), committed.at(-1)!.cursor));
    expect([...byId([...committed, ...rest]).keys()].sort()).toEqual([...byId(whole).keys()].sort());
    const firstPages = committed.flatMap((batch) => batch.documents.map((doc) => doc.externalId));
    expect(docs(rest).some((doc) => firstPages.includes(doc.externalId))).toBe(false);
  });
});
