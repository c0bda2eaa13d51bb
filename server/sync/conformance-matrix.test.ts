// The conformance matrix of issue 12: every app of Google Workspace, Microsoft 365, Slack and Notion against every
// capability the issue asks of it. What is known to be missing is listed once, in KNOWN_GAPS; the test fails when a
// capability is missing and not listed, and also when a listed gap has been closed, so the list cannot rot.
//
// The SDK's conformance kit is not run here a second time: each connector's own suite runs it against its fake
// (connectors/<app>/index.test.ts), under `npm test` like this file. The matrix checks that such a call exists, and
// reads the other test files the same way, so it stays a quick table rather than a second copy of every suite.
// Dev mode is the exception: its fakes start here, since whether an app reaches one is only known by asking it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConnectionType, getApp, supportsOrg, supportsPersonal } from '../../common/catalogue';
import { connectFormOf } from '../../common/connect-forms';
import { installPayloadOf } from '../../connectors/sdk';
import { startFakeVendors } from '../dev/fake-vendors';
import { createLogger } from '../logger';
import { getConnector } from './registry';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The apps of issue 12; gworkspace is sign-in only and has no connector of its own. */
const ISSUE_APPS = [
  'slack',
  'notion',
  'gdrive',
  'gworkspace-directory',
  'gmail',
  'gcal',
  'outlook',
  'msteams',
  'sharepoint',
  'onedrive',
] as const;
type IssueApp = (typeof ISSUE_APPS)[number];

const CAPABILITIES = [
  'registered',
  'connectable',
  'org payload',
  'individual payload',
  'auth settings',
  'fake',
  'dev mode',
  'conformance kit',
  'full+incremental+listIds',
  'permission sync',
  'sync test',
  'revocation in chat',
  'crash test',
] as const;
type Capability = (typeof CAPABILITIES)[number];

/** 'n/a': the capability does not apply to the app (the reason is in `notApplicable`). */
type Cell = 'ok' | 'missing' | 'n/a';

/**
 * Readers of these apps are the connecting member alone (and, for events, their attendees, which arrive with each
 * event through the change feed): there is no sharing for a permission sync to follow, nor a member to revoke.
 */
const OWN_CONTENT_APPS: ReadonlySet<IssueApp> = new Set(['gmail', 'gcal', 'outlook']);

/** Notion has no OAuth scopes: an integration's capabilities are set in its settings, pages chosen at consent. */
const NO_SCOPES_APPS: ReadonlySet<IssueApp> = new Set(['notion']);

/** What is missing today, app by app: nothing. A regression, or a capability added to the matrix, lands here. */
const KNOWN_GAPS: Readonly<Partial<Record<IssueApp, readonly Capability[]>>> = {};

const read = (path: string): string | null => {
  const file = join(ROOT, path);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
};

/** The fake module the connector's own test imports, when that file exists. */
function fakeOf(app: IssueApp): string | null {
  const test = `connectors/${app}/index.test.ts`;
  const source = read(test);
  if (source === null) return null;
  for (const [, specifier] of source.matchAll(/from '(\.{1,2}\/[^']*fake[^']*)'/g)) {
    const path = resolve(dirname(join(ROOT, test)), `${specifier}.ts`);
    if (existsSync(path)) return path;
  }
  return null;
}

/** The text of the app's sync test: server/sync/<app>.test.ts or <app>-sync.test.ts. */
const syncTestSourceOf = (app: IssueApp): string | null =>
  read(`server/sync/${app}.test.ts`) ?? read(`server/sync/${app}-sync.test.ts`);

/** The sync test asks `_search` as members what they find. */
function syncTestOf(app: IssueApp): boolean {
  const source = syncTestSourceOf(app);
  return source !== null && /titlesFound\(|\/_search/.test(source);
}

/** The sync test asks, after access changes, what `_search` and a chat answer show a member (server/testing/search). */
const revocationInChatOf = (app: IssueApp): boolean => /\bshownTo\(/.test(syncTestSourceOf(app) ?? '');

function row(app: IssueApp, devMode: ReadonlySet<string>): Record<Capability, Cell> {
  const definition = getApp(app);
  const connector = getConnector(app);
  const cell = (ok: boolean): Cell => (ok ? 'ok' : 'missing');
  const orgAllowed =
    definition !== undefined &&
    supportsOrg(definition) &&
    definition.connectionType !== ConnectionType.PersonalOnly;
  const individualAllowed = definition !== undefined && supportsPersonal(definition);
  // The payload the dialog sends for a kind must be the one the install route parses with.
  const payload = (isOrg: boolean, allowed: boolean): Cell =>
    !allowed
      ? 'n/a'
      : cell(
          definition !== undefined &&
            connector !== undefined &&
            installPayloadOf(connector, isOrg) === connectFormOf(definition, isOrg, 'example.com').payload,
        );
  const oauth = connector?.oauth;
  const kinds = connector ? [installPayloadOf(connector, true), installPayloadOf(connector, false)] : [];
  const authSettings =
    kinds.includes('marketplace') ||
    (oauth !== undefined &&
      new URL(oauth.tokenUrl).protocol === 'https:' &&
      new URL(oauth.authorizeUrl).protocol === 'https:' &&
      (oauth.scopes.length > 0 || NO_SCOPES_APPS.has(app)));
  const kit = read(`connectors/${app}/index.test.ts`)?.includes('runConnectorConformance(') ?? false;
  return {
    registered: cell(connector !== undefined),
    // Without a connector the install route answers NOT_IMPLEMENTED; an OAuth app needs its OAuth settings too.
    connectable: cell(
      definition !== undefined &&
        connector !== undefined &&
        kinds.some((kind) => kind !== undefined) &&
        (!kinds.includes('oauth') || connector.oauth !== undefined),
    ),
    'org payload': payload(true, orgAllowed),
    'individual payload': payload(false, individualAllowed),
    'auth settings': cell(authSettings),
    fake: cell(fakeOf(app) !== null),
    'dev mode': cell(devMode.has(app)),
    'conformance kit': cell(kit),
    'full+incremental+listIds': cell(
      typeof connector?.fullSync === 'function' &&
        typeof connector.incrementalSync === 'function' &&
        typeof connector.listIds === 'function',
    ),
    'permission sync': OWN_CONTENT_APPS.has(app)
      ? 'n/a'
      : cell(connector?.permissions !== undefined || connector?.documentAcls !== undefined),
    'sync test': cell(syncTestOf(app)),
    'revocation in chat': OWN_CONTENT_APPS.has(app) ? 'n/a' : cell(revocationInChatOf(app)),
    'crash test': cell(read(`server/sync/${app}-crash.test.ts`) !== null),
  };
}

function table(rows: ReadonlyMap<IssueApp, Record<Capability, Cell>>): string {
  const width = Math.max(...ISSUE_APPS.map((app) => app.length));
  const header = ['app'.padEnd(width), ...CAPABILITIES].join(' | ');
  const lines = [...rows].map(([app, cells]) =>
    [
      app.padEnd(width),
      ...CAPABILITIES.map((capability) => cells[capability].padEnd(capability.length)),
    ].join(' | '),
  );
  return [header, ...lines].join('\n');
}

const LOCAL = /^http:\/\/127\.0\.0\.1:\d+(\/|$)/;

/**
 * The apps SCOUT_FAKE_VENDORS=1 really points at a fake: started here, each app's connection settings (and OAuth
 * endpoints) must resolve to 127.0.0.1 whatever a connection stored.
 */
async function appsInDevMode(): Promise<Set<string>> {
  const fakes = await startFakeVendors(createLogger('silent'), {});
  try {
    return new Set(
      ISSUE_APPS.filter((app) => {
        const connector = getConnector(app);
        const config: unknown = connector?.configSchema.parse({ baseUrl: 'https://vendor.example/' });
        const baseUrl =
          typeof config === 'object' && config !== null && 'baseUrl' in config ? config.baseUrl : '';
        const oauth = connector?.oauth;
        return (
          LOCAL.test(String(baseUrl)) &&
          (oauth === undefined || (LOCAL.test(oauth.authorizeUrl) && LOCAL.test(oauth.tokenUrl)))
        );
      }),
    );
  } finally {
    await fakes.close();
  }
}

describe('conformance matrix of issue 12', () => {
  let rows: Map<IssueApp, Record<Capability, Cell>>;
  beforeAll(async () => {
    const devMode = await appsInDevMode();
    rows = new Map(ISSUE_APPS.map((app) => [app, row(app, devMode)]));
  });

  it('has every capability of every app, apart from the known gaps, and every known gap is still a gap', () => {
    const missing = ISSUE_APPS.flatMap((app) =>
      CAPABILITIES.filter((capability) => rows.get(app)?.[capability] === 'missing').map(
        (capability) => `${app}: ${capability}`,
      ),
    );
    const known = Object.entries(KNOWN_GAPS).flatMap(([app, gaps]) =>
      (gaps ?? []).map((capability) => `${app}: ${capability}`),
    );
    const unlisted = missing.filter((gap) => !known.includes(gap));
    const closed = known.filter((gap) => !missing.includes(gap));
    expect(
      { unlisted, closed },
      `missing but not in KNOWN_GAPS: ${unlisted.join(', ') || 'none'}; in KNOWN_GAPS but present now (remove ` +
        `them): ${closed.join(', ') || 'none'}\n${table(rows)}`,
    ).toEqual({ unlisted: [], closed: [] });
  });

  it('lists every app of the catalogue that issue 12 connects', () => {
    for (const app of ISSUE_APPS) expect(getApp(app), app).toBeDefined();
    // gworkspace is Google sign-in; its children are the apps above.
    expect(getConnector('gworkspace')).toBeUndefined();
  });
});
