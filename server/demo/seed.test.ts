import { Writable } from 'node:stream';
import { asc, count, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFlags } from '../../common/flags';
import { Feature, planAllows } from '../../common/plans';
import { loadConfig } from '../config';
import { orgs, subscriptions, users } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { createLogger } from '../logger';
import { startServer } from '../serve';
import { createOrg } from '../testing/fixtures';
import { DEMO_ADMIN_EMAIL, DEMO_DOMAIN, DEMO_FLAGS, seedDemoOnFirstStart, seedDemoWorkspace } from './seed';

const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function memoryStore(): Promise<Store> {
  const store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
  stores.push(store);
  return store;
}

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return {
    logger: pino(sink),
    messages: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg),
  };
}

describe('the demo workspace', () => {
  it('on the first start of an embedded store: Acme, four people, a 30-day ENTERPRISE trial, and how to sign in', async () => {
    const store = await memoryStore();
    const now = new Date('2030-01-01T00:00:00Z');
    await seedDemoOnFirstStart(store, createLogger('silent'), { SCOUT_DEMO: '0' });
    expect((await store.db.select({ n: count() }).from(orgs))[0]?.n).toBe(0);

    const { logger, messages } = capturingLogger();
    await seedDemoOnFirstStart(store, logger, {});
    // Every later start finds the org and changes nothing.
    await seedDemoOnFirstStart(store, logger, {});
    expect(await seedDemoWorkspace(store, now)).toBe(false);
    expect(messages()).toEqual([
      expect.stringContaining('sign in as admin@acme.test; the code appears in this log'),
    ]);

    const [org, ...others] = await store.db.select().from(orgs);
    expect(others).toEqual([]);
    expect(org).toMatchObject({ domain: DEMO_DOMAIN, name: 'Acme', isWorkspaceSetup: true });
    // Sharing, the inbox, live topics and public links are on, so a newcomer can try them with a colleague.
    expect(parseFlags(org?.flags)).toMatchObject(DEMO_FLAGS);
    expect(org?.publicTopicsEnabled).toBe(true);
    const people = await store.db.select().from(users).orderBy(asc(users.email));
    expect(people.map((p) => [p.email, p.firstName, p.lastName, p.admin, p.status])).toEqual([
      [DEMO_ADMIN_EMAIL, 'Ada', 'Admin', true, 'SIGNED_UP'],
      ['ben@acme.test', 'Ben', 'Baker', false, 'SIGNED_UP'],
      ['chloe@acme.test', 'Chloe', 'Chen', false, 'SIGNED_UP'],
      ['dev@acme.test', 'Dev', 'Das', false, 'SIGNED_UP'],
    ]);
    const subs = await store.db.select().from(subscriptions);
    expect(subs).toEqual([expect.objectContaining({ planType: 'ENTERPRISE', status: 'TRIAL' })]);
    const trialDays = ((subs[0]?.trialEndAt?.getTime() ?? 0) - (org?.createdAt.getTime() ?? 0)) / 86_400_000;
    expect(Math.round(trialDays)).toBe(30);
    expect(planAllows(subs, Feature.sso, new Date())).toBe(true);
  });

  it('leaves a store that already has an org alone', async () => {
    const store = await memoryStore();
    await createOrg(store.db, { domain: 'real.test' });
    expect(await seedDemoWorkspace(store)).toBe(false);
    expect((await store.db.select().from(orgs)).map((o) => o.domain)).toEqual(['real.test']);
  });

  it('is what `scout serve` does on an empty embedded store', async () => {
    const store = await memoryStore();
    const config = { ...loadConfig({}), dataDir: MEMORY_DATA_DIR, port: 0, host: '127.0.0.1' };
    const previous = process.env.SCOUT_DEMO;
    delete process.env.SCOUT_DEMO;
    try {
      const server = await startServer(config, { logger: createLogger('silent'), logLevel: 'silent', store });
      await server.app.close();
    } finally {
      if (previous !== undefined) process.env.SCOUT_DEMO = previous;
    }
    const [admin] = await store.db.select().from(users).where(eq(users.email, DEMO_ADMIN_EMAIL));
    expect(admin).toMatchObject({ admin: true, status: 'SIGNED_UP' });
  });
});
