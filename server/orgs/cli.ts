import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { eq } from 'drizzle-orm';
import { PLAN_ORDER, SubscriptionStatus, type PlanType } from '../../common/plans';
import { loadConfig } from '../config';
import { orgs } from '../db/schema';
import { openStore } from '../db/store';
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
      const config = loadConfig();
      const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        const [found] = await store.db
          .select()
          .from(orgs)
          .where(eq(orgs.domain, domain.toLowerCase()))
          .limit(1);
        // Thrown, not command.error(), so the store closes before the CLI exits with 1.
        if (!found) throw new Error(`error: no organisation has the domain '${domain}'`);
        const trialDays = options.trialDays ?? DEFAULT_TRIAL_DAYS;
        const sub = await setPlan(store.db, found.id, {
          planType: plan,
          status: options.status,
          trialEndAt: options.status === 'TRIAL' ? new Date(Date.now() + trialDays * 86_400_000) : null,
        });
        const until = sub.trialEndAt ? ` until ${sub.trialEndAt.toISOString()}` : '';
        process.stdout.write(`${found.domain}: ${sub.planType} ${sub.status}${until}\n`);
      } finally {
        await store.close();
      }
    });
}
