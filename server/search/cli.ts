import type { Command } from 'commander';
import { asc, eq } from 'drizzle-orm';
import { loadConfig } from '../config';
import { orgs } from '../db/schema';
import { openStore } from '../db/store';
import { initSearch, reindexOrg } from './index';

/**
 * `scout reindex [--org <domain>]`: rebuilds chunks and BM25 statistics from the stored documents, for one org
 * or all. For after a chunking or tokenising change, or to repair statistics; search keeps working meanwhile.
 */
export function registerSearchCommands(program: Command): void {
  program
    .command('reindex')
    .description('rebuild the search chunks and statistics from the stored documents')
    .option('--org <domain>', 'only this organisation (default: every organisation)')
    .action(async (options: { org?: string }) => {
      const config = loadConfig();
      const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        const targets = await store.db
          .select({ id: orgs.id, domain: orgs.domain })
          .from(orgs)
          .where(options.org ? eq(orgs.domain, options.org.trim().toLowerCase()) : undefined)
          .orderBy(asc(orgs.domain));
        // thrown rather than command.error(), so the store closes before the CLI exits with 1
        if (options.org && targets.length === 0)
          throw new Error(`error: no organisation has the domain '${options.org}'`);
        const { engine } = await initSearch(store);
        for (const org of targets) {
          const started = Date.now();
          const result = await reindexOrg(store.db, org.id);
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(
            `${org.domain}: ${result.documents} documents, ${result.chunks} chunks reindexed in ${seconds} s (${engine})\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
}
