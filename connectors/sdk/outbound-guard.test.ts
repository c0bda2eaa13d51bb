// Every address these tests hand to a connection is 127.0.0.1 (or ::1): the other private ranges are checked as
// addresses only, so nothing here ever sends a packet off this machine even if the guard were broken.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import {
  RefusedAddressError,
  assertPublicHost,
  createGuardedFetch,
  isPublicAddress,
  parsePrivateAccess,
  privateAccessFromEnv,
  type Resolver,
} from './outbound-guard';

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
      'refusing to connect to mixed.test: 10.0.0.1 is not a public address',
    );
    await expect(assertPublicHost(new URL('https://public.test/'), false, resolve)).resolves.toBeUndefined();
  });

  it('asks the system resolver, so localhost is refused', async () => {
    await expect(assertPublicHost(new URL('http://localhost/'))).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('lets the hosts SCOUT_CRAWL_ALLOW_PRIVATE names through, and only those', async () => {
    expect(parsePrivateAccess(undefined)).toBe(false);
    expect(parsePrivateAccess('0')).toBe(false);
    expect(parsePrivateAccess('1')).toBe(true);
    expect(parsePrivateAccess(' Wiki.Corp, [::1] ,')).toEqual(['wiki.corp', '::1']);
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

describe('privateAccessFromEnv', () => {
  it("reads SCOUT_ALLOW_PRIVATE_HOSTS and the crawler's older SCOUT_CRAWL_ALLOW_PRIVATE together", () => {
    expect(privateAccessFromEnv({})).toBe(false);
    expect(privateAccessFromEnv({ SCOUT_ALLOW_PRIVATE_HOSTS: '1' })).toBe(true);
    expect(privateAccessFromEnv({ SCOUT_CRAWL_ALLOW_PRIVATE: 'true' })).toBe(true);
    expect(
      privateAccessFromEnv({ SCOUT_ALLOW_PRIVATE_HOSTS: 'idp.corp', SCOUT_CRAWL_ALLOW_PRIVATE: '1' }),
    ).toBe(true);
    expect(
      privateAccessFromEnv({
        SCOUT_ALLOW_PRIVATE_HOSTS: 'idp.corp,wiki.corp',
        SCOUT_CRAWL_ALLOW_PRIVATE: 'wiki.corp',
      }),
    ).toEqual(['idp.corp', 'wiki.corp']);
    expect(privateAccessFromEnv({ SCOUT_ALLOW_PRIVATE_HOSTS: '0', SCOUT_CRAWL_ALLOW_PRIVATE: '' })).toBe(
      false,
    );
  });
});

describe('createGuardedFetch', () => {
  let server: FakeServer;
  let port: string;

  beforeEach(async () => {
    server = await startFakeServer();
    port = new URL(server.url).port;
    server.route('GET', '/ok', () => ({ json: { ok: true } }));
  });
  afterEach(() => server.close());

  it('refuses loopback literals and names that resolve to loopback before connecting', async () => {
    const guarded = createGuardedFetch({ access: false });
    for (const host of ['127.0.0.1', '[::1]', 'localhost', '[::ffff:7f00:1]']) {
      await expect(guarded(`http://${host}:${port}/ok`), host).rejects.toBeInstanceOf(RefusedAddressError);
    }
    expect(server.requests).toEqual([]);
  });

  it('vets the address each connection really uses, so DNS rebinding after check 1 is refused too', async () => {
    // Check 1 hears a public address, as from a rebinding DNS server; the connection then resolves 127.0.0.1.
    const rebinding: Resolver = async () => ['93.184.216.34'];
    const guarded = createGuardedFetch({ access: false, resolve: rebinding });
    const error: unknown = await guarded(`http://localhost:${port}/ok`).catch((caught: unknown) => caught);
    expect((error as Error).cause).toBeInstanceOf(RefusedAddressError);
    expect(server.requests).toEqual([]);
  });

  it('reaches the hosts the allow-list names, and only those', async () => {
    const guarded = createGuardedFetch({ access: ['127.0.0.1'] });
    const response = await guarded(`http://127.0.0.1:${port}/ok`);
    expect(await response.json()).toEqual({ ok: true });
    await expect(guarded(`http://localhost:${port}/ok`)).rejects.toBeInstanceOf(RefusedAddressError);
    expect(server.requests.map((request) => request.path)).toEqual(['/ok']);
  });

  it('hands a redirect back instead of following it, so an allowed host cannot bounce it to a refused one', async () => {
    server.route('GET', '/jump', () => ({
      status: 302,
      headers: { location: `http://localhost:${port}/ok` },
    }));
    const response = await createGuardedFetch({ access: ['127.0.0.1'] })(`http://127.0.0.1:${port}/jump`, {
      redirect: 'follow',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`http://localhost:${port}/ok`);
    expect(server.requests.map((request) => request.path)).toEqual(['/jump']);
  });

  it('bounds the body and the time a response may take', async () => {
    server.route('GET', '/big', () => ({ body: 'x'.repeat(64 * 1024) }));
    server.route('GET', '/slow', () => ({ body: 'late', delayMs: 60_000 }));
    const guarded = createGuardedFetch({ access: true, maxBodyBytes: 1024, timeoutMs: 300 });
    await expect(guarded(`http://127.0.0.1:${port}/big`)).rejects.toBeInstanceOf(ResponseTooLargeError);
    const startedAt = Date.now();
    await expect(guarded(`http://127.0.0.1:${port}/slow`)).rejects.toThrow();
    expect(Date.now() - startedAt).toBeLessThan(30_000);
  });
});
