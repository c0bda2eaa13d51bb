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
import { RefusedAddressError, createGuardedDispatcher } from '../sdk/outbound-guard';

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

  it('is on unless SCOUT_ALLOW_PRIVATE_HOSTS or SCOUT_CRAWL_ALLOW_PRIVATE says otherwise', async () => {
    vi.stubEnv('SCOUT_CRAWL_ALLOW_PRIVATE', '');
    vi.stubEnv('SCOUT_ALLOW_PRIVATE_HOSTS', '');
    await expect(collect(websiteConnector.fullSync(context(`${site.url}/`)))).rejects.toBeInstanceOf(
      RefusedAddressError,
    );
    expect(site.server.requests).toEqual([]);
    vi.stubEnv('SCOUT_CRAWL_ALLOW_PRIVATE', '1');
    const batches = await collect(websiteConnector.fullSync(context(`${site.url}/`)));
    expect(batches.flatMap((batch) => batch.documents)).toHaveLength(2);
    vi.stubEnv('SCOUT_CRAWL_ALLOW_PRIVATE', '');
    vi.stubEnv('SCOUT_ALLOW_PRIVATE_HOSTS', '127.0.0.1');
    const allowed = await collect(websiteConnector.fullSync(context(`${site.url}/`)));
    expect(allowed.flatMap((batch) => batch.documents)).toHaveLength(2);
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
