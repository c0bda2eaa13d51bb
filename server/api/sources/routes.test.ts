import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchableSourcesResponse } from '../../../common/api/sources';
import { ConnectionStatus } from '../../../common/connection-status';
import { aclGroupMembers, appConnections, type Org, type User } from '../../db/schema';
import { upsertDocuments, type IndexDocument } from '../../search';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let acme: Org;
let ada: User;
let ben: User;
let cy: User;
let olga: User;
const tokens = new Map<User, string>();

const doc = (source: string, externalId: string, acl: string[]): IndexDocument => ({
  source,
  externalId,
  title: `${source} ${externalId}`,
  body: `The body of ${externalId}.`,
  acl,
});

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  acme = await createOrg(db, { domain: 'acme.test' });
  const other = await createOrg(db, { domain: 'other.test' });
  ada = await createUser(db, acme, { email: 'ada@acme.test', admin: true });
  ben = await createUser(db, acme, { email: 'ben@acme.test' });
  cy = await createUser(db, acme, { email: 'cy@acme.test' });
  olga = await createUser(db, other, { email: 'olga@other.test' });
  for (const user of [ada, ben, cy, olga])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);

  // The org's Jira is connected but has indexed nothing yet; Ada's own Gmail is hers alone; a Slack connection
  // being disconnected no longer counts as connected.
  await db.insert(appConnections).values([
    { orgId: acme.id, userId: ada.id, appName: 'jira', isOrg: true, statusCode: ConnectionStatus.Indexing },
    { orgId: acme.id, userId: ada.id, appName: 'gmail', statusCode: ConnectionStatus.IndexingComplete },
    { orgId: acme.id, userId: ada.id, appName: 'asana', statusCode: ConnectionStatus.Disconnecting },
  ]);
  await db
    .insert(aclGroupMembers)
    .values({ orgId: acme.id, groupKey: 'group:slack:eng', memberEmail: 'ben@acme.test' });
  await upsertDocuments(db, acme.id, [
    doc('notion', 'handbook', ['org']),
    doc('notion', 'roadmap', ['org']),
    doc('notion', 'salaries', ['user:ada@acme.test']),
    doc('confluence', 'runbook', ['org']),
    doc('slack', 'eng-1', ['group:slack:eng']),
    doc('slack', 'eng-2', ['group:slack:eng']),
    doc('slack', 'exec', ['user:ada@acme.test']),
    doc('gmail', 'ada-mail', ['user:ada@acme.test']),
    doc('files', 'ben-upload', ['user:ben@acme.test']),
    doc('files', 'shared-upload', ['org']),
    doc('verified_answers', 'vpn', ['org']),
  ]);
  await upsertDocuments(db, other.id, [doc('notion', 'elsewhere', ['org']), doc('slack', 'theirs', ['org'])]);
});
afterAll(() => server.close());

const sourcesOf = async (user: User) => {
  const res = await server.app.inject({
    method: 'GET',
    url: '/api/v1/sources',
    headers: { authorization: `Bearer ${tokens.get(user)}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json<SearchableSourcesResponse>();
};

describe('GET /sources', () => {
  it('lists the connected apps and every app with documents the member reads, counting only those', async () => {
    expect(await sourcesOf(ada)).toEqual({
      apps: [
        { appName: 'confluence', numDocs: 1 },
        { appName: 'gmail', numDocs: 1 },
        { appName: 'jira', numDocs: 0 },
        { appName: 'notion', numDocs: 3 },
        { appName: 'slack', numDocs: 1 },
      ],
      files: { numDocs: 1 },
      answers: { numDocs: 1 },
    });
  });

  it('never counts, nor lists an app for, documents the member cannot read', async () => {
    // Ben reads the Slack group's two messages, his own upload, none of Ada's private documents, and not her Gmail.
    expect(await sourcesOf(ben)).toEqual({
      apps: [
        { appName: 'confluence', numDocs: 1 },
        { appName: 'jira', numDocs: 0 },
        { appName: 'notion', numDocs: 2 },
        { appName: 'slack', numDocs: 2 },
      ],
      files: { numDocs: 2 },
      answers: { numDocs: 1 },
    });
    // Cy is in no group: Slack, whose every document here is private to a group or to Ada, is not his to search.
    const cys = await sourcesOf(cy);
    expect(cys.apps.map((app) => app.appName)).toEqual(['confluence', 'jira', 'notion']);
    expect(cys.files).toEqual({ numDocs: 1 });
  });

  it('keeps to the member’s own org, and refuses the signed-out', async () => {
    expect(await sourcesOf(olga)).toEqual({
      apps: [
        { appName: 'notion', numDocs: 1 },
        { appName: 'slack', numDocs: 1 },
      ],
      files: { numDocs: 0 },
      answers: { numDocs: 0 },
    });
    const signedOut = await server.app.inject({ method: 'GET', url: '/api/v1/sources' });
    expect(signedOut.statusCode).toBe(401);
  });
});
