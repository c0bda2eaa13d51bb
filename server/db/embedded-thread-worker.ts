// Runs inside the embedded store's thread (embedded-thread.ts): one PGlite, and the statements the API thread posts.
import { rename, readFile, writeFile } from 'node:fs/promises';
import { parentPort, threadId } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { vector } from '@electric-sql/pglite-pgvector';
import type { ThreadError, ThreadReply, ThreadRequest } from './embedded-thread';

const port = parentPort;
if (!port) throw new Error('server/db/embedded-thread-worker.ts runs in a worker thread');

let pg: PGlite | undefined;
const transactions = new Map<number, { tx: Transaction; end(commit: boolean): void; done: Promise<void> }>();
let nextTx = 1;

const keepAsText = (value: string) => value;

function store(): PGlite {
  if (!pg) throw new Error('the embedded store is not open');
  return pg;
}

function runner(tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return store();
  const open = transactions.get(tx);
  if (!open) throw new Error('Transaction is closed');
  return open.tx;
}

async function begin(): Promise<number> {
  const id = nextTx++;
  let started: () => void = () => {};
  const ready = new Promise<void>((resolve) => (started = resolve));
  let end: (commit: boolean) => void = () => {};
  const ended = new Promise<boolean>((resolve) => (end = resolve));
  // PGlite's transaction holds its lock until the callback returns: other statements queue behind it, as in process
  const done = store()
    .transaction(async (tx) => {
      transactions.set(id, { tx, end, done });
      started();
      if (!(await ended)) await tx.rollback();
    })
    .finally(() => transactions.delete(id));
  // a BEGIN that fails settles `done` before the callback ever runs
  await Promise.race([ready, done]);
  return id;
}

/**
 * Statements outside a transaction run one at a time with a turn of this thread's event loop between them. PGlite
 * starts the next queued statement in the same microtask run that ends the last, so a backlog would otherwise hold
 * every later message, a health ping included, until the whole backlog ends. Statements inside a transaction skip
 * this queue: they run under the transaction's lock, which the queued ones wait for.
 */
let outsideTransactions: Promise<unknown> = Promise.resolve();
function inTurn<T>(statement: () => Promise<T>): Promise<T> {
  const run = outsideTransactions.then(() => new Promise((resolve) => setImmediate(resolve))).then(statement);
  outsideTransactions = run.catch(() => {});
  return run;
}

async function handle(request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'open':
      pg = await PGlite.create({
        ...(request.options.dataDir ? { dataDir: request.options.dataDir } : {}),
        ...(request.options.loadDataDir
          ? { loadDataDir: new Blob([await readFile(request.options.loadDataDir)]) }
          : {}),
        extensions: { pg_textsearch, vector },
        postgresqlconf: request.options.postgresqlConf,
      });
      return null;
    case 'query': {
      const parsers = Object.fromEntries(request.shape.textTypes.map((type) => [type, keepAsText]));
      const query = () =>
        runner(request.tx).query(request.sql, request.params, { rowMode: request.shape.rowMode, parsers });
      return request.tx === undefined ? inTurn(query) : query();
    }
    case 'exec': {
      const exec = () => runner(request.tx).exec(request.sql);
      return request.tx === undefined ? inTurn(exec) : exec();
    }
    case 'begin':
      return begin();
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('Transaction is closed');
      open.end(request.commit);
      // COMMIT itself can fail (a deferred constraint): the caller hears it
      await open.done;
      return null;
    }
    case 'alive':
      return pg !== undefined && !pg.closed;
    case 'close':
      if (pg && !pg.closed) await pg.close();
      return null;
    case 'dump': {
      const dump = await store().dumpDataDir('none');
      // several processes may write the same file at once: each writes its own and renames it into place
      const partial = `${request.file}.${process.pid}.${threadId}.partial`;
      await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      await rename(partial, request.file);
      return null;
    }
  }
}

/** An error as the API thread rebuilds it: PostgreSQL's fields, but never the statement's parameters. */
function describeError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error) };
  const described: ThreadError = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (key === 'params' || key === 'queryOptions') continue;
    if (['string', 'number', 'boolean'].includes(typeof value))
      described[key] = value as string | number | boolean;
  }
  return described;
}

port.on('message', (request: ThreadRequest) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies ThreadReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: describeError(error) } satisfies ThreadReply),
  );
});
