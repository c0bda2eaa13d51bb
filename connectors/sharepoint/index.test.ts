import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { microsoft } from '../../common/strings';
import { PermissionMismatchError, createConnectorContext } from '../sdk';
import { collect, runConnectorConformance } from '../sdk/testing';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  groupGrant,
  startGraphTenantFake,
  type GraphTenantFake,
} from './fake';
import { sharepointConnector } from './index';

let tenant: GraphTenantFake;
const credentials = { email: ADMIN_EMAIL, marketplace: true };

beforeEach(async () => {
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_SECRET', CLIENT_SECRET);
  tenant = await startGraphTenantFake();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await tenant.close();
});

const context = () => createConnectorContext(sharepointConnector, { credentials, config: tenant.config });
const documentsOf = async () =>
  (await collect(sharepointConnector.fullSync(context()))).flatMap((batch) => batch.documents);

describe('sharepoint connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(sharepointConnector, {
      fakeServer: tenant.graph,
      credentials,
      invalidCredentials: { email: 'admin@fabrikam.com', marketplace: true },
      config: tenant.config,
      changeSource: () => {
        tenant.rename('b!eng', 'design', 'Design v2 documents.docx');
        tenant.upsert('b!hr', { id: 'fresh', name: 'Fresh documents.txt' });
        tenant.remove('b!hr', 'salaries');
        return { changed: ['b!eng:design', 'b!hr:fresh'], deleted: ['b!hr:salaries'] };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: 6 },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      groups: 2,
    });
  });

  it('indexes every library of every site, skipping folders and files older than three years', async () => {
    const titles = Object.fromEntries((await documentsOf()).map((doc) => [doc.externalId, doc.title]));
    expect(titles).toEqual(Object.fromEntries(tenant.files(['b!eng', 'b!hr'])));
    expect(titles['b!eng:ancient']).toBeUndefined();
  });

  it('mirrors item permissions: users, groups inherited from folders, links, and site groups as their own principal', async () => {
    const docs = await documentsOf();
    const acl = Object.fromEntries(docs.map((doc) => [doc.externalId, [...(doc.acl ?? [])].sort()]));
    expect(acl).toEqual({
      // Bob directly, the eng group through the Specs folder (inheritedFrom).
      'b!eng:design': ['group:sharepoint:g-eng', 'user:bob@contoso.com'],
      'b!eng:roadmap': ['org'],
      // Graph cannot list a site group's members: it admits nobody.
      'b!eng:members': ['group:sharepoint:sitegroup:b!eng:5'],
      'b!hr:salaries': ['user:ada@contoso.com'],
      // An anyone link is not public: the organisation, like an organisation link.
      'b!hr:handbook': ['org', 'user:grace@contoso.com'],
      'b!hr:offer': ['user:linus@contoso.com'],
    });
    const design = docs.find((doc) => doc.externalId === 'b!eng:design');
    expect(design?.body).toBe('Engineering / Documents / Specs / Design documents.docx');
    expect(design?.fileType).toBe('docx');
    expect(design?.url).toMatch(/^https:\/\/contoso\.sharepoint\.com\//);
  });

  it('lists Entra groups with their transitive members', async () => {
    const memberships = (await collect(sharepointConnector.permissions!(context()))).flat();
    expect(memberships).toEqual([
      { group: 'group:sharepoint:g-eng', members: ['user:grace@contoso.com', 'user:linus@contoso.com'] },
      { group: 'group:sharepoint:g-sre', members: ['user:linus@contoso.com'] },
    ]);
  });

  it('answers current readers by id, nobody where Graph refuses to say, and leaves out files that are gone', async () => {
    tenant.setPermissions('b!eng', 'roadmap', [groupGrant('roadmap', 'g-sre')]);
    tenant.remove('b!hr', 'offer');
    const answers = await sharepointConnector.documentAcls!(context(), ['b!eng:roadmap', 'b!hr:offer']);
    expect(answers).toEqual([{ externalId: 'b!eng:roadmap', acl: ['group:sharepoint:g-sre'] }]);

    // Sharing Graph refuses to show is nobody's to read, until it can be read again.
    const refused = { kind: 'status', status: 403 } as const;
    tenant.graph.failNext(1, refused, { path: '/v1.0/drives/b!eng/items/roadmap/permissions' });
    expect(await sharepointConnector.documentAcls!(context(), ['b!eng:roadmap'])).toEqual([
      { externalId: 'b!eng:roadmap', acl: [] },
    ]);
  });

  it('reports the move of a file in a later delta with its new path', async () => {
    const full = await collect(sharepointConnector.fullSync(context()));
    tenant.move('b!hr', 'handbook', 'root');
    tenant.upsert('b!hr', { id: 'policies', name: 'Policies', folder: true });
    tenant.move('b!hr', 'handbook', 'policies');
    const changed = (
      await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor))
    ).flatMap((batch) => batch.documents);
    expect(changed.map((doc) => [doc.externalId, doc.body])).toEqual([
      ['b!hr:handbook', 'HR / Documents / Policies / Handbook documents.pdf'],
    ]);
  });

  it('folds drives without changes into one batch, so quiet drives do not each commit one', async () => {
    const full = await collect(sharepointConnector.fullSync(context()));
    const quiet = await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(quiet).toHaveLength(1);
    expect(quiet[0]!.documents).toEqual([]);
  });

  it('enumerates a drive again when Graph says its delta token is too old (410)', async () => {
    const full = await collect(sharepointConnector.fullSync(context()));
    tenant.expireDeltaTokens();
    const again = (
      await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor))
    ).flatMap((batch) => batch.documents);
    expect(again.map((doc) => doc.externalId).sort()).toEqual(
      [...tenant.files(['b!eng', 'b!hr']).keys()].sort(),
    );
  });

  it('takes a new token when Graph refuses the one it has, and says so when the tenant withdrew consent', async () => {
    const ctx = context();
    await sharepointConnector.validate(ctx);
    tenant.expireTokens();
    await expect(sharepointConnector.validate(ctx)).resolves.toEqual({
      workspaceName: 'Contoso',
      email: ADMIN_EMAIL,
    });
    tenant.expireTokens();
    tenant.revokeConsent();
    const refused = sharepointConnector.validate(ctx);
    await expect(refused).rejects.toBeInstanceOf(PermissionMismatchError);
    await expect(refused).rejects.toThrow(microsoft.ADMIN_CONSENT_REQUIRED);
  });
});

describe('sharepoint individual connection', () => {
  it('passes the conformance kit with a member’s delegated token, reading the sites Graph lists to them', async () => {
    const report = await runConnectorConformance(sharepointConnector, {
      fakeServer: tenant.graph,
      credentials: { access_token: tenant.memberToken('grace') },
      config: tenant.config,
      changeSource: () => {
        tenant.rename('b!eng', 'roadmap', 'Roadmap v2 documents.pptx');
        return { changed: ['b!eng:roadmap'], deleted: [] };
      },
    });
    expect(report).toMatchObject({ resumedMidSync: true, incremental: { documents: 1 }, groups: 2 });
    expect(tenant.graph.requests.some((request) => request.path === '/v1.0/sites')).toBe(true);
  });
});
