// Every address these tests hand to a connection is 127.0.0.1 (or ::1): the other private ranges are checked as
// addresses only, so nothing here ever sends a packet off this machine even if the guard were broken.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectorContext } from '../sdk/context';
import { InvalidUrlError, TransientError } from '../sdk/errors';
import { createHttpClient } from '../sdk/http';
import { silentLogger } from '../sdk/logger';
import { collect } from '../sdk/testing';
import { html, startFakeSite, type FakeSite } from './fake';
import { websiteConnector } from './index';
import {
  RefusedAddressError,
  assertPublicHost,
  createGuardedDispatcher,
  isPublicAddress,
  privateAccessFromEnv,
  type Resolver,
} from './ssrf';

let site: FakeSite;

beforeEach(async () => {
  site = await startFakeSite();
  site.page('/', html('Home', 'Welcome.', ['/a']));
  site.page('/a', html('A', 'Alpha.'));
});

afterEach(async () => {
  await site.close();
  vi.unstubAllEnvs();
});

const port = () => new URL(site.url).port;

function context(url: string, allowPrivateNetworks?: boolean | string[]) {
  return createConnectorContext(websiteConnector, {
    credentials: { url },
    config: { delayMs: 0, ...(allowPrivateNetworks === undefined ? {} : { allowPrivateNetworks }) },
    random: () => 0,
  });
}

/** A resolver for names the test controls; it fails loudly if asked about anything else. */
const resolverOf =
  (answers: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw new Error(`unexpected lookup of ${hostname}`);
    return addresses;
  };

const neverResolve: Resolver = async (hostname) => {
  throw new Error(`an IP literal was resolved: ${hostname}`);
};

describe('isPublicAddress', () => {
  it('passes public unicast addresses only', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    const refused = [
      '127.0.0.1', // loopback
      '127.255.0.9',
      '10.1.2.3', // private
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254', // link-local: cloud metadata
      '100.64.0.1', // carrier-grade NAT
      '0.0.0.0', // unspecified
      '224.0.0.1', // multicast
      '255.255.255.255', // broadcast
      '192.0.2.1', // documentation
      '::1', // loopback
      '::', // unspecified
      'fe80::1', // link-local
      'fd00::1', // unique local
      'fc00::1',
      'ff02::1', // multicast
      '::ffff:127.0.0.1', // IPv4-mapped loopback
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
      'not an address',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
  });
});

describe('assertPublicHost', () => {
  it('refuses private IP literals without resolving anything', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://10.0.0.8:8080/admin',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://0x7f.1/',
      'http://[fd12:3456::1]/',
    ]) {
      await expect(assertPublicHost(new URL(url), false, neverResolve), url).rejects.toBeInstanceOf(
        RefusedAddressError,
      );
    }
  });

  it('refuses a name if any of its addresses is not public, and accepts a public one', async () => {
    const resolve = resolverOf({
      'mixed.test': ['93.184.216.34', '10.0.0.1'],
      'public.test': ['93.184.216.34'],
    });
    await expect(assertPublicHost(new URL('https://mixed.test/'), false, resolve)).rejects.toThrow(
      'refusing to crawl mixed.test: 10.0.0.1 is not a public address',
    );
    await expect(assertPublicHost(new URL('https://public.test/'), false, resolve)).resolves.toBeUndefined();
  });

  it('asks the system resolver, so localhost is refused', async () => {
    await expect(assertPublicHost(new URL('http://localhost/'))).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('lets the hosts SCOUT_CRAWL_ALLOW_PRIVATE names through, and only those', async () => {
    expect(privateAccessFromEnv(undefined)).toBe(false);
    expect(privateAccessFromEnv('0')).toBe(false);
    expect(privateAccessFromEnv('1')).toBe(true);
    expect(privateAccessFromEnv(' Wiki.Corp, [::1] ,')).toEqual(['wiki.corp', '::1']);
    const resolve = resolverOf({ 'wiki.corp': ['10.0.0.5'], 'other.corp': ['10.0.0.6'] });
    await expect(
      assertPublicHost(new URL('http://wiki.corp/'), ['wiki.corp'], resolve),
    ).resolves.toBeUndefined();
    await expect(assertPublicHost(new URL('http://[::1]/'), ['::1'], neverResolve)).resolves.toBeUndefined();
    await expect(
      assertPublicHost(new URL('http://other.corp/'), ['wiki.corp'], resolve),
    ).rejects.toBeInstanceOf(RefusedAddressError);
  });
});

describe('the crawler with the guard on', () => {
  it('refuses 127.0.0.1, [::1] and localhost before connecting, at validate and at sync', async () => {
    for (const host of ['127.0.0.1', '[::1]', 'localhost']) {
      const url = `http://${host}:${port()}/`;
      const invalid: unknown = await websiteConnector
        .validate(context(url, false))
        .catch((error: unknown) => error);
      expect(invalid, host).toBeInstanceOf(InvalidUrlError);
      expect((invalid as InvalidUrlError).cause, host).toBeInstanceOf(RefusedAddressError);
      await expect(collect(websiteConnector.fullSync(context(url, false))), host).rejects.toBeInstanceOf(
        RefusedAddressError,
      );
    }
    expect(site.server.requests).toEqual([]);
  });

  it('is on unless SCOUT_CRAWL_ALLOW_PRIVATE says otherwise', async () => {
    vi.stubEnv('SCOUT_CRAWL_ALLOW_PRIVATE', '');
    await expect(collect(websiteConnector.fullSync(context(`${site.url}/`)))).rejects.toBeInstanceOf(
      RefusedAddressError,
    );
    expect(site.server.requests).toEqual([]);
    vi.stubEnv('SCOUT_CRAWL_ALLOW_PRIVATE', '1');
    const batches = await collect(websiteConnector.fullSync(context(`${site.url}/`)));
    expect(batches.flatMap((batch) => batch.documents)).toHaveLength(2);
  });

  it('checks every redirect target: an allowed host cannot redirect the crawl to a refused one', async () => {
    site.redirect('/', `http://localhost:${port()}/a`);
    const url = `${site.url}/`;
    await expect(websiteConnector.validate(context(url, ['127.0.0.1']))).rejects.toBeInstanceOf(
      InvalidUrlError,
    );
    await expect(collect(websiteConnector.fullSync(context(url, ['127.0.0.1'])))).rejects.toBeInstanceOf(
      RefusedAddressError,
    );
    expect(site.requested()).not.toContain('/a');
    expect(site.requested()).toContain('/');
  });

  it('vets the address each connection really uses, so DNS rebinding after the check is refused too', async () => {
    // The request skips check 1 here, as if the name had resolved to a public address a moment earlier.
    const dispatcher = await createGuardedDispatcher(false, silentLogger);
    expect(dispatcher).toBeDefined();
    try {
      const http = createHttpClient({ dispatcher });
      const error: unknown = await http
        .request(`http://localhost:${port()}/`, { retry: false })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TransientError);
      expect(((error as Error).cause as Error).cause).toBeInstanceOf(RefusedAddressError);
      expect(site.server.requests).toEqual([]);
      // An allowed host goes through the same dispatcher untouched.
      const allowed = await createGuardedDispatcher(['localhost'], silentLogger);
      const ok = await createHttpClient({ ...(allowed ? { dispatcher: allowed } : {}) }).request(
        `http://localhost:${port()}/`,
      );
      expect(ok.status).toBe(200);
      await allowed?.close();
    } finally {
      await dispatcher?.close();
    }
  });
});
