import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectorContext } from '../sdk';
import { collect, runConnectorConformance } from '../sdk/testing';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  linkGrant,
  startGraphTenantFake,
  userGrant,
  type GraphTenantFake,
} from '../sharepoint/fake';
import { onedriveConnector } from './index';

let tenant: GraphTenantFake;
const credentials = { email: ADMIN_EMAIL, marketplace: true };
const ONEDRIVES = ['b!grace', 'b!linus'];

beforeEach(async () => {
  vi.stubEnv('SCOUT_OAUTH_ONEDRIVE_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_ONEDRIVE_CLIENT_SECRET', CLIENT_SECRET);
  tenant = await startGraphTenantFake();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await tenant.close();
});

const context = () => createConnectorContext(onedriveConnector, { credentials, config: tenant.config });

describe('onedrive connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(onedriveConnector, {
      fakeServer: tenant.graph,
      credentials,
      invalidCredentials: { email: 'admin@fabrikam.com', marketplace: true },
      config: tenant.config,
      changeSource: () => {
        tenant.rename('b!grace', 'notes', 'Notes v2 documents.md');
        tenant.upsert('b!linus', { id: 'plan', name: 'Plan documents.docx' });
        tenant.remove('b!linus', 'todo');
        return { changed: ['b!grace:notes', 'b!linus:plan'], deleted: ['b!linus:todo'] };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: 2 },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      // The tenant's two security groups and the Microsoft 365 group of its Engineering site.
      groups: 3,
    });
  });

  it('indexes every user’s OneDrive (users without one are skipped) with its sharing as the ACL', async () => {
    tenant.upsert('b!grace', {
      id: 'shared',
      name: 'Shared documents.pptx',
      permissions: [linkGrant('s', 'users', ['bob'])],
    });
    const docs = (await collect(onedriveConnector.fullSync(context()))).flatMap((batch) => batch.documents);
    expect(Object.fromEntries(docs.map((doc) => [doc.externalId, doc.title]))).toEqual(
      Object.fromEntries(tenant.files(ONEDRIVES)),
    );
    expect(Object.fromEntries(docs.map((doc) => [doc.externalId, [...(doc.acl ?? [])].sort()]))).toEqual({
      'b!grace:notes': ['user:grace@contoso.com'],
      'b!grace:shared': ['user:bob@contoso.com'],
      'b!linus:todo': ['user:grace@contoso.com', 'user:linus@contoso.com'],
    });
    expect(docs.find((doc) => doc.externalId === 'b!grace:notes')?.body).toBe(
      'OneDrive / Grace / Notes documents.md',
    );
  });
});

describe('onedrive individual connection', () => {
  const memberContext = () =>
    createConnectorContext(onedriveConnector, {
      credentials: { access_token: tenant.memberToken('linus') },
      config: tenant.config,
    });

  it('passes the conformance kit with a member’s delegated token', async () => {
    const report = await runConnectorConformance(onedriveConnector, {
      fakeServer: tenant.graph,
      credentials: { access_token: tenant.memberToken('linus') },
      config: tenant.config,
      changeSource: () => {
        tenant.upsert('b!linus', { id: 'plan', name: 'Plan documents.docx' });
        tenant.rename('b!grace', 'notes', 'Notes v2 documents.md');
        return { changed: ['b!linus:plan'], deleted: [] };
      },
    });
    expect(report).toMatchObject({ fullSync: { documents: 1 }, incremental: { documents: 1 }, groups: 3 });
  });

  it('indexes the member’s own OneDrive only, each file with its readers computed as the org connection does', async () => {
    const docs = (await collect(onedriveConnector.fullSync(memberContext()))).flatMap(
      (batch) => batch.documents,
    );
    expect(docs.map((doc) => [doc.externalId, [...(doc.acl ?? [])].sort()])).toEqual([
      ['b!linus:todo', ['user:grace@contoso.com', 'user:linus@contoso.com']],
    ]);
    expect(tenant.graph.requests.some((request) => request.path === '/v1.0/me/drive')).toBe(true);

    tenant.setPermissions('b!linus', 'todo', [userGrant('todo', 'linus')]);
    expect(await onedriveConnector.documentAcls!(memberContext(), ['b!linus:todo'])).toEqual([
      { externalId: 'b!linus:todo', acl: ['user:linus@contoso.com'] },
    ]);
  });
});
