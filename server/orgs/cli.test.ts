import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Feature, planAllows } from '../../common/plans';
import { orgs, subscriptions, type Subscription } from '../db/schema';
import { openStore } from '../db/store';
import { createOrg } from '../testing/fixtures';

const SCOUT = fileURLToPath(new URL('../../bin/scout.js', import.meta.url));
const DAY_MS = 86_400_000;

let dataDir: string;
let env: NodeJS.ProcessEnv;
let orgId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'scout-org-cli-'));
  const { DATABASE_URL: _url, ...inherited } = process.env;
  env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const store = await openStore({ databaseUrl: null, dataDir });
  try {
    orgId = (await createOrg(store.db, { domain: 'plan.test', plan: 'TEAM' })).id;
  } finally {
    await store.close();
  }
}, 60_000);
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** Runs the real command in its own process, as an operator would (the store is closed meanwhile). */
function scout(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCOUT, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function storedSubscriptions(): Promise<Subscription[]> {
  const store = await openStore({ databaseUrl: null, dataDir });
  try {
    return await store.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.orgId, orgId))
      .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
  } finally {
    await store.close();
  }
}

describe('scout org set-plan', () => {
  it('puts an org on a trial plan, replacing the subscription in force', async () => {
    const before = Date.now();
    const run = await scout([
      'org',
      'set-plan',
      'PLAN.test',
      'ENTERPRISE',
      '--status',
      'TRIAL',
      '--trial-days',
      '10',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^plan\.test: ENTERPRISE TRIAL until \d{4}-/);

    const subs = await storedSubscriptions();
    expect(subs.map((s) => [s.planType, s.status])).toEqual([
      ['TEAM', 'CANCELLED'],
      ['ENTERPRISE', 'TRIAL'],
    ]);
    const trialEnd = subs[1]?.trialEndAt?.getTime() ?? 0;
    expect(trialEnd).toBeGreaterThanOrEqual(before + 10 * DAY_MS);
    expect(trialEnd).toBeLessThan(Date.now() + 10 * DAY_MS);
    expect(planAllows([...subs].reverse(), Feature.sso, new Date())).toBe(true);
  }, 60_000);

  it('sets an ACTIVE plan by default, with no trial end', async () => {
    const run = await scout(['org', 'set-plan', 'plan.test', 'BUSINESS']);
    expect(run.status, run.stderr).toBe(0);
    const subs = await storedSubscriptions();
    expect(subs.filter((s) => s.status !== 'CANCELLED')).toEqual([
      expect.objectContaining({ planType: 'BUSINESS', status: 'ACTIVE', trialEndAt: null }),
    ]);
  }, 60_000);

  it('answers a clear error and exit code 1 for an unknown domain, plan or option', async () => {
    const unknownDomain = await scout(['org', 'set-plan', 'nowhere.test', 'TEAM']);
    expect(unknownDomain.status).toBe(1);
    expect(unknownDomain.stderr).toContain("no organisation has the domain 'nowhere.test'");

    const unknownPlan = await scout(['org', 'set-plan', 'plan.test', 'PLATINUM']);
    expect(unknownPlan.status).toBe(1);
    expect(unknownPlan.stderr).toContain('TEAM, BUSINESS, ENTERPRISE');

    const badStatus = await scout(['org', 'set-plan', 'plan.test', 'TEAM', '--status', 'INACTIVE']);
    expect(badStatus.status).toBe(1);
    const daysWithoutTrial = await scout(['org', 'set-plan', 'plan.test', 'TEAM', '--trial-days', '5']);
    expect(daysWithoutTrial.status).toBe(1);
    expect(daysWithoutTrial.stderr).toContain('--trial-days needs --status TRIAL');

    // Nothing changed: BUSINESS from the test before is still the plan.
    const live = (await storedSubscriptions()).filter((s) => s.status !== 'CANCELLED');
    expect(live.map((s) => s.planType)).toEqual(['BUSINESS']);
  }, 120_000);
});

describe('scout flags', () => {
  it('sets, lists and unsets flags, and refuses a misspelt flag changing nothing', async () => {
    const set = await scout(['flags', 'set', 'plan.test', 'multiplayerEnabled=on', 'notifications=on']);
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^multiplayerEnabled +true$/m);
    expect(set.stdout).toMatch(/^notifications +true$/m);
    expect(set.stdout).toMatch(/^answers +false \(default\)$/m);
    expect(set.stdout).toMatch(/^fileTypeFilterNoticeThreshold +6 \(default\)$/m);

    const unset = await scout(['flags', 'unset', 'plan.test', 'notifications']);
    expect(unset.stdout).toMatch(/^notifications +false \(default\)$/m);

    const misspelt = await scout(['flags', 'set', 'plan.test', 'answers=on', 'multiplayer=on']);
    expect(misspelt.status).toBe(1);
    expect(misspelt.stderr).toContain("'multiplayer' is not a flag");
    const unknownUnset = await scout(['flags', 'unset', 'plan.test', 'multiplayerEnabled', 'nope']);
    expect(unknownUnset.status).toBe(1);
    expect(unknownUnset.stderr).toContain("'nope' is not a flag");

    const list = await scout(['flags', 'list', 'plan.test']);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^multiplayerEnabled +true$/m);
    const store = await openStore({ databaseUrl: null, dataDir });
    try {
      const [org] = await store.db.select({ flags: orgs.flags }).from(orgs).where(eq(orgs.id, orgId));
      expect(org?.flags).toEqual({ multiplayerEnabled: true });
    } finally {
      await store.close();
    }
  }, 90_000);
});
