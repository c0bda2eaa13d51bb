import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDENTIAL_NAMES, google as googleStrings } from '../../common/strings';
import {
  FatalSourceError,
  InvalidCredentialsError,
  PermissionMismatchError,
  createConnectorContext,
  defineConnector,
} from '../sdk';
import { startFakeServer, type FakeServer } from '../sdk/fake-server';
import { serveServiceAccountTokens, type FakeServiceAccount } from './fake-service-account';
import { googleConfigSchema, googleCredentialsSchema } from './api';
import { UnknownMemberError, configuredServiceAccount, delegatedToken } from './service-account';

/** An org connection of some Google app: only its credentials and its connection's HTTP client matter here. */
const connector = defineConnector({
  shortname: 'gdrive',
  installPayload: { org: 'marketplace' },
  credentialsSchema: googleCredentialsSchema,
  configSchema: googleConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  validate: () => Promise.resolve({}),
  fullSync: async function* () {},
  incrementalSync: async function* () {},
  listIds: async function* () {},
});

const DRIVE = 'https://www.googleapis.com/auth/drive.readonly';
const GMAIL = 'https://www.googleapis.com/auth/gmail.readonly';

let server: FakeServer;
let account: FakeServiceAccount;

beforeEach(async () => {
  server = await startFakeServer();
  account = serveServiceAccountTokens(server);
  account.grant([DRIVE]);
  account.setMembers(['ada@acme.test', 'grace@acme.test']);
  vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', JSON.stringify(account.key));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

const context = () =>
  createConnectorContext(connector, {
    credentials: { email: 'ada@acme.test', marketplace: true },
    config: {},
    random: () => 0,
  });

describe('the service account of org connections', () => {
  it('trades a JWT signed with its key for a token acting as the member, and keeps it until it nears expiry', async () => {
    const ctx = context();
    const token = await delegatedToken(ctx, { subject: 'Grace@acme.test', scopes: [DRIVE] }, false);
    expect(account.holderOf(`Bearer ${token}`)).toEqual({ subject: 'grace@acme.test', scopes: [DRIVE] });
    expect(await delegatedToken(ctx, { subject: 'grace@acme.test', scopes: [DRIVE] }, false)).toBe(token);
    const renewed = await delegatedToken(ctx, { subject: 'grace@acme.test', scopes: [DRIVE] }, true);
    expect(renewed).not.toBe(token);
    expect(account.issuedTo).toEqual(['grace@acme.test', 'grace@acme.test']);
  });

  it('says the delegation lacks a scope when the Admin console did not grant it', async () => {
    const refused = delegatedToken(context(), { subject: 'ada@acme.test', scopes: [DRIVE, GMAIL] }, false);
    await expect(refused).rejects.toBeInstanceOf(PermissionMismatchError);
    await expect(refused).rejects.toThrow(googleStrings.DELEGATION_REQUIRED);
    expect(account.issuedTo).toEqual([]);
  });

  it('tells a member unknown to the Workspace from a key Google does not recognise', async () => {
    const unknown = delegatedToken(context(), { subject: 'mallory@acme.test', scopes: [DRIVE] }, false);
    await expect(unknown).rejects.toBeInstanceOf(UnknownMemberError);

    // Another service account's key: its signature does not verify with this account's public key.
    const other = await startFakeServer();
    try {
      const stranger = serveServiceAccountTokens(other);
      vi.stubEnv(
        'SCOUT_GOOGLE_SERVICE_ACCOUNT',
        JSON.stringify({ ...account.key, private_key: stranger.key.private_key }),
      );
      const forged = delegatedToken(context(), { subject: 'ada@acme.test', scopes: [DRIVE] }, false);
      await expect(forged).rejects.toBeInstanceOf(InvalidCredentialsError);
      await expect(forged).rejects.not.toBeInstanceOf(UnknownMemberError);
    } finally {
      await other.close();
    }
  });

  it('reads the key from SCOUT_GOOGLE_SERVICE_ACCOUNT as JSON or as the path of its file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'scout-sa-'));
    const path = join(folder, 'key.json');
    writeFileSync(path, JSON.stringify(account.key));
    expect(configuredServiceAccount({ SCOUT_GOOGLE_SERVICE_ACCOUNT: path })).toEqual(account.key);
    expect(configuredServiceAccount({ SCOUT_GOOGLE_SERVICE_ACCOUNT: JSON.stringify(account.key) })).toEqual(
      account.key,
    );
    expect(configuredServiceAccount({})).toBeNull();
    expect(() =>
      configuredServiceAccount({ SCOUT_GOOGLE_SERVICE_ACCOUNT: join(folder, 'none.json') }),
    ).toThrow(FatalSourceError);
    expect(() => configuredServiceAccount({ SCOUT_GOOGLE_SERVICE_ACCOUNT: '{"type":"user"}' })).toThrow(
      FatalSourceError,
    );
  });
});
