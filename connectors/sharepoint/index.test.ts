import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { microsoft } from '../../common/strings';
import { PermissionMismatchError, createConnectorContext, type Cursor, type SyncBatch } from '../sdk';
import { collect, runConnectorConformance } from '../sdk/testing';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  ENG_SITE,
  HR_SITE,
  SITE_PAGES_ROOT,
  TEAM_GROUP,
  groupGrant,
  startGraphTenantFake,
  userGrant,
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
/** Everything a full sync of the fixture indexes: the libraries' files, the site pages and the list items. */
const tenantDocuments = () => new Map([...tenant.files(['b!eng', 'b!hr']), ...tenant.siteContent()]);
const launchPage = `page:${ENG_SITE}:launch`;
const failover = `listitem:${ENG_SITE}:l-incidents:1`;

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
      // Six files, two site pages and three list items.
      fullSync: { documents: 11 },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      // Three Entra groups and the readers of each of the two sites.
      groups: 5,
    });
  });

  it('indexes every library of every site, skipping folders and files older than three years', async () => {
    const titles = Object.fromEntries((await documentsOf()).map((doc) => [doc.externalId, doc.title]));
    expect(titles).toEqual(Object.fromEntries(tenantDocuments()));
    expect(titles['b!eng:ancient']).toBeUndefined();
  });

  it('indexes site pages with the text of their text web parts, and list items with their columns', async () => {
    const docs = await documentsOf();
    const page = docs.find((doc) => doc.externalId === launchPage);
    expect(page).toMatchObject({
      title: 'Launch checklist',
      body: 'What ships when\n\n## Before launch\n\nFreeze the zeppelin schema.\n\nTell support.',
      url: 'https://contoso.sharepoint.com/sites/s-eng/SitePages/launch.aspx',
      objectType: 'Articles',
      fileType: 'page',
      author: { name: 'Ada' },
    });
    const item = docs.find((doc) => doc.externalId === failover);
    expect(item).toMatchObject({
      title: 'Database failover',
      body: 'Engineering / Incidents\nTitle: Database failover\nSeverity: High\nSummary: Replica lag on marmalade',
      url: 'https://contoso.sharepoint.com/sites/s-eng/Lists/Incidents/DispForm.aspx?ID=1',
      fileType: 'listitem',
    });
    expect(docs.find((doc) => doc.externalId === `listitem:${ENG_SITE}:l-incidents:2`)?.body).toContain(
      'Resolved: true',
    );
    // Libraries are the drives', hidden lists nobody sees, and a page untouched for four years is out of the window.
    const ids = docs.map((doc) => doc.externalId);
    expect(ids.filter((id) => /l-eng-docs|l-eng-pages|l-eng-hidden|ancient-page/.test(id))).toEqual([]);
    expect(tenant.graph.requests.some((request) => request.path.endsWith('/l-eng-docs/items/delta'))).toBe(
      false,
    );
  });

  it('makes pages that inherit readable by their site’s readers, whose members are its Microsoft 365 group and owners, and list items by nobody', async () => {
    const docs = await documentsOf();
    const acl = Object.fromEntries(
      docs.filter((doc) => !doc.externalId.startsWith('b!')).map((doc) => [doc.externalId, doc.acl]),
    );
    expect(acl).toEqual({
      [launchPage]: [`group:sharepoint:site:${ENG_SITE}`],
      // Graph names no list item's readers, so one narrowed below its site cannot be told apart: nobody's.
      [failover]: [],
      [`listitem:${ENG_SITE}:l-incidents:2`]: [],
      [`page:${HR_SITE}:benefits`]: [`group:sharepoint:site:${HR_SITE}`],
      [`listitem:${HR_SITE}:l-holidays:1`]: [],
    });
    const sites = async () =>
      (await collect(sharepointConnector.permissions!(context())))
        .flat()
        .filter((membership) => membership.group.startsWith('group:sharepoint:site:'));
    expect(await sites()).toEqual([
      {
        group: `group:sharepoint:site:${ENG_SITE}`,
        members: [`group:sharepoint:${TEAM_GROUP}`, 'user:ada@contoso.com'],
      },
      // HR is the team site of no Microsoft 365 group: Graph names none of its readers, so it has none.
      { group: `group:sharepoint:site:${HR_SITE}`, members: [] },
    ]);
    tenant.setGroupOwners(TEAM_GROUP, []);
    expect((await sites())[0]).toEqual({
      group: `group:sharepoint:site:${ENG_SITE}`,
      members: [`group:sharepoint:${TEAM_GROUP}`],
    });
    expect(await sharepointConnector.documentAcls!(context(), [launchPage, failover])).toEqual([
      { externalId: failover, acl: [] },
      { externalId: launchPage, acl: [`group:sharepoint:site:${ENG_SITE}`] },
    ]);
  });

  it('reads the permissions of a page whose inheritance is broken, mapped as a file’s, and the site’s readers again once it inherits', async () => {
    const aclOfLaunch = async () => (await documentsOf()).find((doc) => doc.externalId === launchPage)?.acl;
    const answered = async () => (await sharepointConnector.documentAcls!(context(), [launchPage]))[0]?.acl;
    const site = `group:sharepoint:site:${ENG_SITE}`;

    tenant.setPagePermissions(ENG_SITE, 'launch', [userGrant('launch', 'grace')]);
    expect(await aclOfLaunch()).toEqual(['user:grace@contoso.com']);
    expect(await answered()).toEqual(['user:grace@contoso.com']);
    // Shared with Grace as well: all the library's grants are still there, so the site's readers are too.
    tenant.setPagePermissions(ENG_SITE, 'launch', [...SITE_PAGES_ROOT, userGrant('launch', 'grace')]);
    expect(await answered()).toEqual([site, 'user:grace@contoso.com']);
    // The Members group taken off: the groups left admit nobody Graph can name, Grace still.
    tenant.setPagePermissions(ENG_SITE, 'launch', [SITE_PAGES_ROOT[0]!, userGrant('launch', 'grace')]);
    expect(await answered()).toEqual(['group:sharepoint:sitegroup:l-eng-pages:3', 'user:grace@contoso.com']);
    tenant.setPagePermissions(ENG_SITE, 'launch', null);
    expect(await answered()).toEqual([site]);
  });

  it('reads each changed page’s permissions once and its library’s root once per site, and nothing for quiet pages', async () => {
    const permissionReads = () =>
      tenant.graph.requests.filter(
        (request) => request.path.endsWith('/permissions') && request.path.includes('/lists/'),
      );
    const full = await collect(sharepointConnector.fullSync(context()));
    const roots = (site: string, list: string) =>
      `/v1.0/sites/${encodeURIComponent(site)}/lists/${list}/drive/root/permissions`;
    const page = (site: string, list: string, id: string) =>
      `/v1.0/sites/${encodeURIComponent(site)}/lists/${list}/items/${id}/driveItem/permissions`;
    // The four-year-old page is out of the window, unread.
    expect([...new Set(permissionReads().map((request) => request.path))].sort()).toEqual(
      [
        roots(ENG_SITE, 'l-eng-pages'),
        page(ENG_SITE, 'l-eng-pages', 'launch'),
        roots(HR_SITE, 'l-hr-pages'),
        page(HR_SITE, 'l-hr-pages', 'benefits'),
      ].sort(),
    );
    // Each listing is followed page by page (three grants, two a page), none of its pages asked for twice.
    const asked = permissionReads().map((request) => `${request.path}?${request.search}`);
    expect(asked).toHaveLength(8);
    expect(new Set(asked).size).toBe(asked.length);
    tenant.graph.clearLog();
    await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(permissionReads()).toEqual([]);
  });

  it('reads again at the next incremental sync a page whose sharing alone changed, seen in its library’s delta', async () => {
    const full = await collect(sharepointConnector.fullSync(context()));
    tenant.setPagePermissions(ENG_SITE, 'launch', [userGrant('launch', 'grace')]);
    tenant.graph.clearLog();
    const next = await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor));
    const pages = next
      .flatMap((batch) => batch.documents)
      .filter((doc) => doc.externalId.startsWith('page:'));
    expect(pages.map((doc) => [doc.externalId, doc.acl])).toEqual([[launchPage, ['user:grace@contoso.com']]]);
    // Graph lists a page whose sharing alone changed only to a delta that asks to see sharing changes.
    const deltas = tenant.graph.requests.filter((request) =>
      request.path.endsWith('/lists/l-eng-pages/drive/root/delta'),
    );
    expect(deltas.length).toBeGreaterThan(0);
    for (const request of deltas)
      expect(request.headers.prefer).toBe(
        'deltashowremovedasdeleted, deltatraversepermissiongaps, deltashowsharingchanges',
      );

    const after = await collect(sharepointConnector.incrementalSync(context(), next.at(-1)!.cursor));
    expect(
      after.flatMap((batch) => batch.documents).filter((doc) => doc.externalId.startsWith('page:')),
    ).toEqual([]);
  });

  it('goes on without a Site Pages library’s delta where Graph refuses it, and takes one at the next sync', async () => {
    const delta = { path: '/v1.0/sites/:site/lists/:list/drive/root/delta' };
    tenant.graph.failNext(
      1,
      { kind: 'status', status: 403, json: { error: { code: 'accessDenied', message: 'Access denied' } } },
      delta,
    );
    const full = await collect(sharepointConnector.fullSync(context()));
    expect(new Set(full.flatMap((batch) => batch.documents.map((doc) => doc.externalId)))).toEqual(
      new Set(tenantDocuments().keys()),
    );
    tenant.graph.clearLog();
    await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor));
    // Both libraries are asked for a delta link again: the refused one for its first.
    const asked = tenant.graph.requests.filter((request) => request.path.endsWith('/drive/root/delta'));
    expect(
      asked.filter((request) => new URLSearchParams(request.search).get('token') === 'latest'),
    ).toHaveLength(1);
    expect(asked).toHaveLength(2);
  });

  it('hides a page whose permissions Graph refuses or answers in a shape it does not have, goes on with the others, and reads it again on the next sync', async () => {
    const pagePermissions = '/v1.0/sites/:site/lists/:list/items/launch/driveItem/permissions';
    const site = (id: string) => `group:sharepoint:site:${id}`;
    const aclById = (batches: readonly SyncBatch[]) =>
      Object.fromEntries(batches.flatMap((batch) => batch.documents).map((doc) => [doc.externalId, doc.acl]));

    tenant.graph.failNext(1, { kind: 'status', status: 403 }, { path: pagePermissions });
    const full = await collect(sharepointConnector.fullSync(context()));
    expect(aclById(full)).toMatchObject({ [launchPage]: [], [`page:${HR_SITE}:benefits`]: [site(HR_SITE)] });
    expect(aclById(full)['b!eng:roadmap']).toEqual(['org']);

    // Unchanged, the page is read again because it was hidden; once readable it is hidden no more.
    const again = await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(aclById(again)).toEqual({ [launchPage]: [site(ENG_SITE)] });
    const quiet = await collect(sharepointConnector.incrementalSync(context(), again.at(-1)!.cursor));
    expect(aclById(quiet)).toEqual({});

    tenant.graph.failNext(
      1,
      { kind: 'status', status: 200, json: { error: 'no value' } },
      { path: pagePermissions },
    );
    expect(await sharepointConnector.documentAcls!(context(), [launchPage])).toEqual([
      { externalId: launchPage, acl: [] },
    ]);
  });

  it('follows an edited page and new and deleted list items; a deleted page is no longer listed', async () => {
    const full = await collect(sharepointConnector.fullSync(context()));
    tenant.upsertPage(ENG_SITE, {
      id: 'launch',
      title: 'Launch checklist',
      paragraphs: ['<p>Freeze it now.</p>'],
    });
    tenant.removeListItem('l-incidents', '2');
    tenant.upsertListItem('l-incidents', { id: '3', fields: { Title: 'Disk full', Severity: 'Medium' } });
    tenant.removePage(HR_SITE, 'benefits');
    const changed = await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(changed.flatMap((batch) => batch.documents).map((doc) => [doc.externalId, doc.body])).toEqual([
      [launchPage, 'Freeze it now.'],
      [`listitem:${ENG_SITE}:l-incidents:3`, 'Engineering / Incidents\nTitle: Disk full\nSeverity: Medium'],
    ]);
    expect(changed.flatMap((batch) => batch.deletedExternalIds ?? [])).toEqual([
      `listitem:${ENG_SITE}:l-incidents:2`,
    ]);
    const listed = (await collect(sharepointConnector.listIds(context()))).flat();
    expect(listed).toContain(launchPage);
    expect(listed).not.toContain(`page:${HR_SITE}:benefits`);
    expect(listed).not.toContain(`listitem:${ENG_SITE}:l-incidents:2`);
  });

  it('continues from a cursor of the drives alone, reading the site content from the start', async () => {
    const full = await collect(sharepointConnector.fullSync(context()));
    const drivesOnly = (full.at(-1)!.cursor as { drives: Cursor }).drives;
    const resumed = (await collect(sharepointConnector.incrementalSync(context(), drivesOnly))).flatMap(
      (batch) => batch.documents,
    );
    expect(resumed.map((doc) => doc.externalId).sort()).toEqual([...tenant.siteContent().keys()].sort());
  });

  it('mirrors item permissions: users, groups inherited from folders, links, and site groups as their own principal', async () => {
    const docs = await documentsOf();
    // The files' readers; the site pages' and list items' have a test of their own below.
    const files = docs.filter((doc) => doc.externalId.startsWith('b!'));
    const acl = Object.fromEntries(files.map((doc) => [doc.externalId, [...(doc.acl ?? [])].sort()]));
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
      {
        group: `group:sharepoint:${TEAM_GROUP}`,
        members: ['user:linus@contoso.com', 'user:bob@contoso.com'],
      },
      {
        group: `group:sharepoint:site:${ENG_SITE}`,
        members: [`group:sharepoint:${TEAM_GROUP}`, 'user:ada@contoso.com'],
      },
      { group: `group:sharepoint:site:${HR_SITE}`, members: [] },
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

  it('enumerates a drive and a list again when Graph says their delta tokens are too old (410)', async () => {
    const full = await collect(sharepointConnector.fullSync(context()));
    tenant.expireDeltaTokens();
    const again = (
      await collect(sharepointConnector.incrementalSync(context(), full.at(-1)!.cursor))
    ).flatMap((batch) => batch.documents);
    // The Site Pages libraries' delta tokens are too old as well: a sharing change they would have shown is
    // unknown, so every page is read again.
    expect(again.map((doc) => doc.externalId).sort()).toEqual(
      [...tenant.files(['b!eng', 'b!hr']).keys(), ...tenant.siteContent().keys()].sort(),
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
    expect(report).toMatchObject({
      fullSync: { documents: 11 },
      resumedMidSync: true,
      incremental: { documents: 1 },
      groups: 5,
    });
    expect(tenant.graph.requests.some((request) => request.path === '/v1.0/sites')).toBe(true);
  });
});
