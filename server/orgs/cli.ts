import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { eq } from 'drizzle-orm';
import { DEFAULT_FLAGS, isKnownFlag, parseFlagAssignments, parseFlags } from '../../common/flags';
import { MODELS } from '../../common/models';
import { PLAN_ORDER, SubscriptionStatus, type PlanType } from '../../common/plans';
import { loadConfig } from '../config';
import { orgs, type Org } from '../db/schema';
import { openStore, type Db } from '../db/store';
import { setPlan } from './subscriptions';

const DEFAULT_TRIAL_DAYS = 14;
const SETTABLE_STATUSES = [SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIAL] as const;

function positiveDays(value: string): number {
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new InvalidArgumentError('Give a whole number of days from 1 to 3650.');
  }
  return days;
}

type SetPlanOptions = { status: (typeof SETTABLE_STATUSES)[number]; trialDays?: number };

/** `scout org …`: operator commands on one organisation, run against the store of the environment. */
export function registerOrgCommands(program: Command): void {
  const org = program.command('org').description('manage organisations');

  org
    .command('set-plan')
    .description("set an organisation's plan: a new subscription replaces the one in force")
    .argument('<domain>', "the organisation's domain, e.g. acme.test")
    .addArgument(new Argument('<plan>', 'the plan').choices(PLAN_ORDER))
    .addOption(
      new Option('--status <status>', 'ACTIVE, or TRIAL until --trial-days from now')
        .choices(SETTABLE_STATUSES)
        .default('ACTIVE'),
    )
    .option('--trial-days <days>', `length of the trial (default ${DEFAULT_TRIAL_DAYS})`, positiveDays)
    .action(async (domain: string, plan: PlanType, options: SetPlanOptions, command: Command) => {
      if (options.trialDays !== undefined && options.status !== 'TRIAL') {
        command.error('error: --trial-days needs --status TRIAL');
      }
      await withOrg(domain, async (db, found) => {
        const trialDays = options.trialDays ?? DEFAULT_TRIAL_DAYS;
        const sub = await setPlan(db, found.id, {
          planType: plan,
          status: options.status,
          trialEndAt: options.status === 'TRIAL' ? new Date(Date.now() + trialDays * 86_400_000) : null,
        });
        const until = sub.trialEndAt ? ` until ${sub.trialEndAt.toISOString()}` : '';
        process.stdout.write(`${found.domain}: ${sub.planType} ${sub.status}${until}\n`);
      });
    });
}

const MODEL_IDS = MODELS.map((model) => model.id);

/** Prints every declared flag of the org with its value, and stored flags this version does not declare. */
function printFlags(org: Org): void {
  const effective = parseFlags(org.flags);
  const names = [...new Set([...Object.keys(DEFAULT_FLAGS), ...Object.keys(org.flags)])];
  const width = Math.max(...names.map((name) => name.length));
  const lines = names.map((name) => {
    const stored = Object.hasOwn(org.flags, name);
    const note = !isKnownFlag(name, MODEL_IDS) ? ' (unknown to this version)' : stored ? '' : ' (default)';
    return `${name.padEnd(width)}  ${String(effective[name] ?? org.flags[name])}${note}`;
  });
  process.stdout.write(`${org.domain}\n${lines.join('\n')}\n`);
}

/** `scout flags …`: an organisation's feature flags (spec §6), all off unless set here or by the demo seed. */
export function registerFlagCommands(program: Command): void {
  const flags = program.command('flags').description("list and switch an organisation's feature flags");
  const domainArgument = ['<domain>', "the organisation's domain, e.g. acme.test"] as const;

  flags
    .command('list')
    .description('every flag with its value; "(default)" where the org has not set it')
    .argument(...domainArgument)
    .action(async (domain: string) => withOrg(domain, async (_db, org) => printFlags(org)));

  flags
    .command('set')
    .description('switch flags, e.g. multiplayerEnabled=on notifications=on; the others keep their value')
    .argument(...domainArgument)
    .argument('<flags...>', `name=on|off (fileTypeFilterNoticeThreshold=<n>); disableModel:<model id>=on`)
    .action(async (domain: string, assignments: string[], _options: unknown, command: Command) => {
      const parsed = parseFlagAssignments(assignments, MODEL_IDS);
      if ('error' in parsed) command.error(`error: ${parsed.error}`);
      else
        await withOrg(domain, async (db, org) => {
          const [updated] = await db
            .update(orgs)
            .set({ flags: { ...org.flags, ...parsed.flags } })
            .where(eq(orgs.id, org.id))
            .returning();
          printFlags(updated!);
        });
    });

  flags
    .command('unset')
    .description("return flags to their default (off), removing the org's own value")
    .argument(...domainArgument)
    .argument('<names...>', 'flag names')
    .action(async (domain: string, names: string[], _options: unknown, command: Command) => {
      const unknown = names.find((name) => !isKnownFlag(name, MODEL_IDS));
      if (unknown) command.error(`error: '${unknown}' is not a flag`);
      else
        await withOrg(domain, async (db, org) => {
          const kept = Object.fromEntries(
            Object.entries(org.flags).filter(([name]) => !names.includes(name)),
          );
          const [updated] = await db.update(orgs).set({ flags: kept }).where(eq(orgs.id, org.id)).returning();
          printFlags(updated!);
        });
    });
}

/** Runs `work` on the organisation with `domain` in the store of the environment, then closes the store. */
async function withOrg(domain: string, work: (db: Db, org: Org) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const [found] = await store.db.select().from(orgs).where(eq(orgs.domain, domain.toLowerCase())).limit(1);
    // Thrown, not command.error(), so the store closes before the CLI exits with 1.
    if (!found) throw new Error(`error: no organisation has the domain '${domain}'`);
    await work(store.db, found);
  } finally {
    await store.close();
  }
}
