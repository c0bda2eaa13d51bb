/**
 * The store factory (DESIGN §3): embedded PGlite under DATA_DIR by default, a PostgreSQL server
 * through `pg` when DATABASE_URL is set. Both hand out the same `Db` type, so the rest of the
 * server writes one set of queries; migrations run on open.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import { EmbeddedClient } from './embedded-thread';
import { memoryTemplateFile } from './memory-template';
import * as schema from './schema';

export type Schema = typeof schema;

/**
 * Raw results (`db.execute`) as both drivers return them: node-postgres's QueryResult and
 * PGlite's Results share `rows`, and nothing else worth relying on.
 */
export interface StoreQueryResultHKT extends PgQueryResultHKT {
  type: { rows: Record<string, unknown>[] };
}

/** The one database type the server writes queries against, whichever driver is underneath. */
export type Db = PgDatabase<StoreQueryResultHKT, Schema>;
/** A transaction handle (`db.transaction(async (tx) => …)`). */
export type Tx = PgTransaction<StoreQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Functions that may run inside or outside a transaction take this. */
export type DbOrTx = Db | Tx;

export type ExtensionName = 'pg_textsearch' | 'vector';

export interface StoreLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export interface StoreOptions {
  /**
   * PostgreSQL server URL. Defaults to env DATABASE_URL. `null` or `''` forces the embedded
   * store even when DATABASE_URL is set (tests, the CLI's --embedded).
   */
  databaseUrl?: string | null;
  /**
   * Embedded store location; the database lives in `<dataDir>/pglite`. Defaults to env DATA_DIR,
   * then './data'. `'memory://'` keeps it in memory (tests).
   */
  dataDir?: string;
  /** Same as `dataDir: 'memory://'` and always embedded. */
  memory?: boolean;
  logger?: StoreLogger;
  /** Server pool size (default 10). */
  maxConnections?: number;
  /** Embedded: how often to check whether the WAL needs a checkpoint (default 10 s; tests). */
  walCheckIntervalMs?: number;
}

export interface Store {
  kind: 'embedded' | 'server';
  db: Db;
  /** Whether the database answers (health checks): a round trip to a server; the embedded thread says it is open. */
  ping(): Promise<void>;
  /** Applies pending migrations; a no-op when up to date. `openStore` already did it once. */
  migrate(): Promise<void>;
  /** Idempotent; the embedded data directory can be reopened afterwards. */
  close(): Promise<void>;
  /** Whether an extension is installed in this database (embedded: always both). */
  hasExtension(name: ExtensionName): boolean;
  /**
   * A PostgreSQL server only: a new connection outside the pool, for LISTEN, which holds its connection for as
   * long as it listens (server/realtime/bridge.ts). The caller ends it.
   */
  dedicatedClient?: () => Promise<pg.Client>;
}

export const MEMORY_DATA_DIR = 'memory://';

/** Resolved from this file so migrations are found from any working directory. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * PGlite runs PostgreSQL in single-user mode, where nothing ever requests a checkpoint (that is the
 * postmaster's checkpointer's job, max_wal_size included), so the WAL grows without bound: 300 MB
 * after a 250 MB bulk insert, measured. The store checkpoints itself once this much WAL has been
 * written since the last one.
 */
const EMBEDDED_WAL_LIMIT_BYTES = 32 * 1024 * 1024;
const EMBEDDED_WAL_CHECK_MS = 10_000;

const silentLogger: StoreLogger = { info() {}, warn() {}, error() {} };

// Arbitrary constant shared by every instance: serialises migrations when several `scout serve`
// and `scout worker` processes start against one server at once.
const MIGRATION_LOCK_KEY = 7_290_431_118;

/**
 * Embedded PostgreSQL settings. The smallest legal WAL sizes (two 16 MB segments) make each
 * checkpoint recycle `pg_wal` down to ~32-48 MB instead of keeping up to 1 GB. The rest restores
 * what PGlite loses when it rewrites postgresql.conf for shared_preload_libraries: its default
 * text search config would be 'simple' and its time zone GMT.
 */
const embeddedPostgresConf = [
  'min_wal_size = 32MB',
  'max_wal_size = 32MB',
  'wal_keep_size = 0',
  "default_text_search_config = 'pg_catalog.english'",
  "timezone = 'UTC'",
];

/** Where memory stores of this build start from (memory-template.ts). */
export const memoryTemplate = (): string => memoryTemplateFile(migrationsFolder, embeddedPostgresConf);

export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const logger = options.logger ?? silentLogger;
  const memory = options.memory === true || options.dataDir === MEMORY_DATA_DIR;
  const databaseUrl = memory
    ? undefined
    : options.databaseUrl === undefined
      ? process.env.DATABASE_URL
      : options.databaseUrl;
  if (databaseUrl) return openServerStore(databaseUrl, options, logger);
  const dataDir = memory ? MEMORY_DATA_DIR : (options.dataDir ?? process.env.DATA_DIR ?? './data');
  return openEmbeddedStore(dataDir, options, logger);
}

async function openEmbeddedStore(
  dataDir: string,
  options: StoreOptions,
  logger: StoreLogger,
): Promise<Store> {
  let pgDataDir: string | undefined;
  let unlock = () => {};
  if (dataDir !== MEMORY_DATA_DIR) {
    pgDataDir = path.resolve(dataDir, 'pglite');
    restrictToOwner();
    mkdirSync(pgDataDir, { recursive: true, mode: 0o700 });
    chmodSync(path.resolve(dataDir), 0o700);
    unlock = lockDataDir(path.resolve(dataDir));
  }
  const onFailure = (err: Error) => logger.error({ err }, 'store: the embedded store stopped; restart Scout');
  const template = dataDir === MEMORY_DATA_DIR ? memoryTemplate() : undefined;
  const openFresh = () =>
    EmbeddedClient.open(
      { ...(pgDataDir ? { dataDir: pgDataDir } : {}), postgresqlConf: embeddedPostgresConf },
      onFailure,
    );
  const fromTemplate = template !== undefined && existsSync(template);
  const client = await (
    fromTemplate
      ? EmbeddedClient.open({ loadDataDir: template, postgresqlConf: embeddedPostgresConf }, onFailure).catch(
          (err: unknown) => {
            // a template cut short or made by another PGlite: a new cluster, and a new template after it
            logger.warn({ err }, 'store: the memory template did not load');
            rmSync(template, { force: true });
            return openFresh();
          },
        )
      : openFresh()
  ).catch((err: unknown) => {
    unlock();
    throw err;
  });
  // the driver calls only what EmbeddedClient has (query, exec, transaction), with PGlite's meaning
  const drizzleDb = drizzlePglite({ client: client as unknown as PGlite, schema });
  const db: Db = drizzleDb;
  const extensions = new Set<string>();

  const migrate = async () => {
    await migratePglite(drizzleDb, { migrationsFolder });
    // after the migrations, which must not depend on extensions (PostgreSQL 15 in CI has none)
    await client.exec('CREATE EXTENSION IF NOT EXISTS pg_textsearch; CREATE EXTENSION IF NOT EXISTS vector;');
    for (const name of await installedExtensions(db)) extensions.add(name);
  };

  let checking = false;
  const checkpointIfWalLarge = async () => {
    if (checking || client.closed) return;
    checking = true;
    try {
      const result = await client.query<{ bytes: string }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text AS bytes FROM pg_control_checkpoint()',
      );
      if (Number(result.rows[0]?.bytes ?? 0) > EMBEDDED_WAL_LIMIT_BYTES && !client.closed) {
        await client.exec('CHECKPOINT');
      }
    } catch (err) {
      if (!client.closed) logger.warn({ err }, 'store: WAL checkpoint failed');
    } finally {
      checking = false;
    }
  };
  const walTimer = setInterval(
    () => void checkpointIfWalLarge(),
    options.walCheckIntervalMs ?? EMBEDDED_WAL_CHECK_MS,
  );
  // the timer must not keep the process alive on its own
  walTimer.unref();

  let closing: Promise<void> | undefined;
  const close = () => {
    clearInterval(walTimer);
    closing ??= (async () => {
      try {
        // leaves the data directory clean (nothing to replay) and lets PostgreSQL recycle WAL
        // segments before the files are closed
        if (!client.closed) await client.exec('CHECKPOINT');
      } catch (err) {
        logger.warn({ err }, 'store: checkpoint before close failed');
      } finally {
        try {
          if (!client.closed) await client.close();
        } finally {
          unlock();
        }
      }
    })();
    return closing;
  };

  try {
    await migrate();
  } catch (err) {
    await close();
    throw err;
  }
  if (template !== undefined && !existsSync(template)) {
    await client
      .dumpTo(template)
      .catch((err: unknown) => logger.warn({ err }, 'store: no memory template written'));
  }
  // PGlite's initdb writes the cluster's first files 0666 whatever the umask (and older versions of Scout
  // left them so); PostgreSQL's own later files are 0600 under the umask set above
  if (dataDir !== MEMORY_DATA_DIR) makeOwnerOnly(path.resolve(dataDir));
  logger.info({ dataDir: pgDataDir ?? MEMORY_DATA_DIR }, 'store: embedded PGlite ready');

  return {
    kind: 'embedded',
    db,
    ping: () => client.alive(),
    migrate,
    close,
    hasExtension: (name) => extensions.has(name),
  };
}

async function openServerStore(
  databaseUrl: string,
  options: StoreOptions,
  logger: StoreLogger,
): Promise<Store> {
  const connection = {
    connectionString: databaseUrl,
    // JIT compilation added ~300 ms to search queries and never pays off for this workload
    // (DESIGN §3). A startup parameter rather than a SET on connect, which would race the pool's
    // first query; an `options` parameter in the URL replaces this one (e.g. for PgBouncer).
    options: '-c jit=off',
  };
  const pool = new pg.Pool({ ...connection, max: options.maxConnections ?? 10 });
  // an idle client losing its connection must not crash the process; the pool replaces it
  pool.on('error', (err) => logger.error({ err }, 'store: idle PostgreSQL connection failed'));
  const drizzleDb = drizzleNodePg({ client: pool, schema });
  const db: Db = drizzleDb;
  const extensions = new Set<string>();

  const migrate = async () => {
    const lockClient = await pool.connect();
    try {
      await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await migrateNodePg(drizzleDb, { migrationsFolder });
      } finally {
        await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      lockClient.release();
    }
    // never CREATE EXTENSION here: on a server that is the operator's decision (and privilege);
    // use whatever they installed
    extensions.clear();
    for (const name of await installedExtensions(db)) extensions.add(name);
  };

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= pool.end();
    return closing;
  };

  try {
    await migrate();
  } catch (err) {
    await close();
    throw err;
  }
  logger.info({ extensions: [...extensions] }, 'store: PostgreSQL server ready');

  return {
    kind: 'server',
    db,
    async ping() {
      await pool.query('SELECT 1');
    },
    migrate,
    close,
    hasExtension: (name) => extensions.has(name),
    async dedicatedClient() {
      const client = new pg.Client(connection);
      await client.connect();
      return client;
    },
  };
}

/**
 * The embedded store holds every document and message in clear (DESIGN §3 encrypts only secrets), so nothing
 * under DATA_DIR may be readable by other users of the machine: the process creates its files 0600 and
 * directories 0700.
 */
function restrictToOwner(): void {
  try {
    process.umask(process.umask() | 0o077);
  } catch (err) {
    // worker threads may not change the umask; makeOwnerOnly still fixes the modes at open
    if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_UNSUPPORTED_OPERATION') throw err;
  }
}

function makeOwnerOnly(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) makeOwnerOnly(file);
    else if (entry.isFile() && (lstatSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

const lockedDirs = new Set<string>();

/**
 * PGlite is single-process PostgreSQL with no lock of its own: two processes opening one data
 * directory both start, and one silently loses the other's writes. A pid file turns that into an
 * error. A lock whose process is gone (a crash) is taken over.
 */
function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'pglite.lock');
  const inUse = (pid: number) =>
    new Error(
      `the embedded store in ${dir} is in use by process ${pid}; run one Scout process per data ` +
        'directory, or use a PostgreSQL server (DATABASE_URL) for several',
    );
  if (lockedDirs.has(dir)) throw inUse(process.pid);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    // our own pid here is a leftover from an earlier process that had the same pid (containers)
    if (Number.isInteger(pid) && pid !== process.pid && processAlive(pid)) throw inUse(pid);
    unlinkSync(file);
  }
  lockedDirs.add(dir);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    lockedDirs.delete(dir);
    try {
      unlinkSync(file);
    } catch {
      // already gone: nothing to release
    }
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function installedExtensions(db: Db): Promise<string[]> {
  const result = await db.execute(sql`SELECT extname FROM pg_extension`);
  return result.rows.map((row) => String(row.extname));
}
