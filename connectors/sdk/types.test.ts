import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { createConnectorContext } from './context';
import { defineConnector } from './define-connector';
import {
  FatalSourceError,
  InvalidCredentialsError,
  InvalidUrlError,
  PermissionMismatchError,
  RateLimitedError,
} from './errors';
import type { ConnectorLogger } from './logger';
import { fakeClock } from './testing';
import {
  ORG_PRINCIPAL,
  googleGroupPrincipal,
  groupPrincipal,
  principalSchema,
  sourceDocumentSchema,
  userPrincipal,
  type SourceDocument,
  type SyncBatch,
} from './types';

const document: SourceDocument = {
  externalId: 'doc-1',
  title: 'Roadmap',
  url: 'https://example.com/doc-1',
  body: 'Q3 plans.',
  author: { name: 'Ada' },
  objectType: 'Articles',
  fileType: 'md',
  createdTime: new Date('2025-01-01T00:00:00Z'),
  modifiedTime: new Date('2025-02-01T00:00:00Z'),
  acl: [ORG_PRINCIPAL],
  extra: { tags: ['plans'], stars: 3 },
};

async function* nothing<T>(): AsyncGenerator<T> {}

const minimal = {
  shortname: 'slab',
  installPayload: 'apiKey',
  credentialsSchema: z.object({ api_key: z.string().min(1) }),
  configSchema: z.object({ baseUrl: z.url().default('https://api.slab.com') }),
  credentialFields: [{ key: 'api_key', label: 'API key', secret: true }],
  credentialName: CREDENTIAL_NAMES.apiKey,
  validate: async () => ({}),
  fullSync: () => nothing<SyncBatch>(),
  incrementalSync: () => nothing<SyncBatch>(),
  listIds: () => nothing<string[]>(),
} as const;

describe('principals', () => {
  it('builds lower-case user principals and source-prefixed group principals', () => {
    expect(userPrincipal(' Ada@Example.COM ')).toBe('user:ada@example.com');
    expect(groupPrincipal('slack', 'S0ABC')).toBe('group:slack:S0ABC');
    // A Google group's email names it everywhere, in any case Drive or the directory spells it.
    expect(googleGroupPrincipal(' Design@Acme.test')).toBe('group:google:design@acme.test');
    expect(principalSchema.safeParse(googleGroupPrincipal('design@acme.test')).success).toBe(true);
    for (const principal of ['org', 'public', 'user:ada@example.com', 'group:gdrive:eng@example.com']) {
      expect(principalSchema.safeParse(principal).success).toBe(true);
    }
    for (const principal of ['user:Ada@example.com', 'user:nobody', 'group::x', 'group:slack:', 'everyone']) {
      expect(principalSchema.safeParse(principal).success).toBe(false);
    }
  });
});

describe('SourceDocument', () => {
  it('accepts a full document and an ACL of null (the source cannot say)', () => {
    expect(sourceDocumentSchema.parse(document)).toEqual(document);
    expect(sourceDocumentSchema.safeParse({ ...document, acl: null }).success).toBe(true);
  });

  it('rejects what the index could not use', () => {
    const bad: Record<string, unknown>[] = [
      { objectType: 'All' },
      { acl: undefined },
      { acl: ['user:Ada@Example.com'] },
      { url: 'javascript:alert(1)' },
      { fileType: 'PDF' },
      { externalId: '' },
      { modifiedTime: new Date('nonsense') },
      { extra: { nested: { a: 1 } } },
    ];
    for (const change of bad)
      expect(sourceDocumentSchema.safeParse({ ...document, ...change }).success).toBe(false);
  });
});

describe('errors', () => {
  it('carry the spec’s messages and the API’s codes', () => {
    const invalid = new InvalidCredentialsError(CREDENTIAL_NAMES.personalAccessToken);
    expect([invalid.name, invalid.code, invalid.message]).toEqual([
      'InvalidCredentialsError',
      'INVALID_CREDENTIALS',
      'Incorrect personal access token. Please try again.',
    ]);
    expect(new InvalidCredentialsError().message).toBe('Incorrect API key. Please try again.');
    expect(new PermissionMismatchError('The account must be a Workspace Admin.').code).toBe(
      'APP_PERMISSION_MISMATCH',
    );
    const url = new InvalidUrlError('Website', CREDENTIAL_NAMES.credentials, { detail: 'answered 404' });
    expect(url).toBeInstanceOf(InvalidCredentialsError);
    expect([url.name, url.code, url.message, url.credentialName, url.detail]).toEqual([
      'InvalidUrlError',
      'INVALID_CREDENTIALS',
      'Failed to install Website, please verify the provided URL',
      'credentials',
      'answered 404',
    ]);
    expect(new RateLimitedError(90_500)).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'rate limited by the source for 91 s',
    });
  });
});

describe('defineConnector', () => {
  it('accepts a connector of a catalogue app', () => {
    expect(defineConnector(minimal).shortname).toBe('slab');
  });

  it('rejects, at compile time and at import, what breaks the contract', () => {
    const wrongKey = [{ key: 'not_a_key', label: 'x', secret: true }] as const;
    // @ts-expect-error 'not_a_key' is not a credential of this connector.
    const typeOnly = () => defineConnector({ ...minimal, credentialFields: wrongKey });
    expect(typeOnly).not.toThrow();
    // @ts-expect-error 'notes' is not an app of the catalogue.
    const unknownApp = () => defineConnector({ ...minimal, shortname: 'notes' });
    expect(unknownApp).toThrow('notes is not in the app catalogue');
    const twice = [minimal.credentialFields[0], minimal.credentialFields[0]];
    expect(() => defineConnector({ ...minimal, credentialFields: twice })).toThrow('repeat a key');
  });
});

describe('createConnectorContext', () => {
  const connector = defineConnector(minimal);

  it('parses credentials and config, and measures the sync window from the clock', () => {
    const clock = fakeClock(Date.parse('2025-06-01T00:00:00Z'));
    const ctx = createConnectorContext(connector, {
      credentials: { api_key: 'k', extra: 1 },
      config: {},
      clock,
    });
    expect(ctx.credentials).toEqual({ api_key: 'k' });
    expect(ctx.config).toEqual({ baseUrl: 'https://api.slab.com' });
    expect(ctx.now().toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(ctx.syncWindowStart.toISOString()).toBe('2022-06-02T00:00:00.000Z');
    expect(ctx.signal.aborted).toBe(false);
  });

  it('sleeps on the connection’s clock and stops sleeping when the job is stopped', async () => {
    const clock = fakeClock(Date.parse('2025-06-01T00:00:00Z'));
    const controller = new AbortController();
    const ctx = createConnectorContext(connector, {
      credentials: { api_key: 'k' },
      config: {},
      clock,
      signal: controller.signal,
    });
    await ctx.sleep(1500);
    expect(clock.sleeps).toEqual([1500]);
    expect(ctx.now().toISOString()).toBe('2025-06-01T00:00:01.500Z');
    controller.abort(new Error('stopped'));
    await expect(ctx.sleep(10)).rejects.toThrow('stopped');
  });

  it('reports unreadable credentials as invalid credentials and bad settings as fatal', () => {
    expect(() => createConnectorContext(connector, { credentials: { api_key: '' }, config: {} })).toThrow(
      InvalidCredentialsError,
    );
    expect(() =>
      createConnectorContext(connector, { credentials: { api_key: 'k' }, config: { baseUrl: 'nope' } }),
    ).toThrow(FatalSourceError);
  });

  it('takes the worker’s pino logger as a ConnectorLogger', () => {
    const logger: ConnectorLogger = pino({ level: 'silent' });
    expect(
      createConnectorContext(connector, { credentials: { api_key: 'k' }, config: {}, logger }).logger,
    ).toBe(logger);
  });
});
