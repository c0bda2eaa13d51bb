/**
 * The embedded store's thread: PGlite runs PostgreSQL as WebAssembly, synchronously, so in the API's thread every
 * statement stopped every request for as long as it ran (a 1M-character document's insert held `/health` for
 * ~120 ms; under 50 members the event loop's p99 delay was 0.9 s). Here PGlite runs in a worker thread of its own,
 * and the API thread only posts statements and awaits their rows.
 *
 * `EmbeddedClient` is what drizzle's PGlite driver is handed: it has the three methods the driver calls (`query`,
 * `exec` and `transaction`) with PGlite's meaning. A transaction holds the thread's transaction lock from BEGIN to
 * COMMIT exactly as an in-process PGlite does, so other statements wait behind it as before.
 */
import { Worker } from 'node:worker_threads';
import type { Results, Transaction } from '@electric-sql/pglite';

const THREAD_ENTRY = new URL('./embedded-thread-entry.mjs', import.meta.url);

export interface EmbeddedOpenOptions {
  /** Absent: in memory. */
  dataDir?: string;
  /** A dump of a data directory to start from (memory-template.ts), instead of a new cluster. */
  loadDataDir?: string;
  postgresqlConf: string[];
}

/** Options of PGlite's `query` that cross the thread: the parsers are functions, so only what they mean does. */
interface QueryShape {
  rowMode: 'array' | 'object';
  /**
   * Types whose values stay PostgreSQL's text: drizzle's parsers for dates, times and intervals are the identity,
   * which the thread applies to the same types.
   */
  textTypes: number[];
}

export type ThreadRequest =
  | { id: number; op: 'open'; options: EmbeddedOpenOptions }
  | { id: number; op: 'query'; sql: string; params: unknown[]; shape: QueryShape; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' }
  | { id: number; op: 'alive' }
  | { id: number; op: 'dump'; file: string };

/** A PostgreSQL error's fields (code, constraint, detail…), which callers test, without its parameters. */
export type ThreadError = { message: string } & Record<string, string | number | boolean | undefined>;

export type ThreadReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError };

/** The query options drizzle's PGlite driver passes: `rowMode` and parsers for the date and time types. */
interface DriverQueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

type QueryFn = <T>(sql: string, params?: unknown[], options?: DriverQueryOptions) => Promise<Results<T>>;
type ExecFn = (sql: string) => Promise<Array<Results>>;

/** What a transaction's callback gets: PGlite's `Transaction`, as far as the driver uses it. */
export type EmbeddedTransaction = Pick<Transaction, 'closed'> & {
  query: QueryFn;
  exec: ExecFn;
  rollback(): Promise<void>;
};

export class EmbeddedThreadError extends Error {}

export class EmbeddedClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #nextId = 1;
  #closed = false;
  #failure: Error | undefined;

  readonly #onFailure: (error: Error) => void;

  private constructor(worker: Worker, onFailure: (error: Error) => void) {
    this.#worker = worker;
    this.#onFailure = onFailure;
    // idle, the thread must not keep the process alive on its own (PGlite in process never did); busy, it must
    worker.unref();
    worker.on('message', (reply: ThreadReply) => this.#settle(reply));
    worker.on('error', (error) => this.#fail(error));
    worker.on('exit', (code) =>
      this.#fail(new EmbeddedThreadError(`the embedded store's thread exited (${code})`)),
    );
  }

  /** `onFailure` hears once if the thread dies (PostgreSQL aborted): every statement fails from then on. */
  static async open(
    options: EmbeddedOpenOptions,
    onFailure: (error: Error) => void = () => {},
  ): Promise<EmbeddedClient> {
    const client = new EmbeddedClient(new Worker(THREAD_ENTRY), onFailure);
    try {
      await client.#call({ op: 'open', options });
    } catch (error) {
      await client.#worker.terminate();
      throw error;
    }
    return client;
  }

  get closed(): boolean {
    return this.#closed;
  }

  query: QueryFn = (sql, params = [], options) =>
    this.#call({ op: 'query', sql, params, shape: shapeOf(options) }) as Promise<never>;

  exec: ExecFn = (sql) => this.#call({ op: 'exec', sql }) as Promise<Array<Results>>;

  async transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    const txId = (await this.#call({ op: 'begin' })) as number;
    let ended = false;
    const open = () => {
      if (ended) throw new Error('Transaction is closed');
    };
    const tx: EmbeddedTransaction = {
      query: (sql, params = [], options) => {
        open();
        return this.#call({ op: 'query', sql, params, shape: shapeOf(options), tx: txId }) as Promise<never>;
      },
      exec: (sql) => {
        open();
        return this.#call({ op: 'exec', sql, tx: txId }) as Promise<Array<Results>>;
      },
      rollback: async () => {
        open();
        ended = true;
        await this.#call({ op: 'end', tx: txId, commit: false });
      },
      get closed() {
        return ended;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (!ended) {
        ended = true;
        await this.#call({ op: 'end', tx: txId, commit: false });
      }
      throw error;
    }
    if (!ended) {
      ended = true;
      await this.#call({ op: 'end', tx: txId, commit: true });
    }
    return result;
  }

  /**
   * Whether the store's thread answers and its database is open. It asks the thread, not PostgreSQL: the answer
   * waits for at most the statement running now, never for the queue behind it (a health check during a large
   * ingest would otherwise take as long as the ingest's backlog).
   */
  async alive(): Promise<void> {
    if (!(await this.#call({ op: 'alive' }))) throw new EmbeddedThreadError('the embedded store is not open');
  }

  /** Writes the data directory, as a tar file, to `file` (replaced whole, never seen half written). */
  async dumpTo(file: string): Promise<void> {
    await this.#call({ op: 'dump', file });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#call({ op: 'close' }, true);
    } finally {
      await this.#worker.terminate();
    }
  }

  #call(request: DistributiveOmit<ThreadRequest, 'id'>, closing = false): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed && !closing)
      return Promise.reject(new EmbeddedThreadError('the embedded store is closed'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  #settle(reply: ThreadReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(Object.assign(new Error(reply.error.message), reply.error));
  }

  #fail(error: Error): void {
    if (!this.#failure && !this.#closed) this.#onFailure(error);
    this.#closed = true;
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#failure);
    this.#pending.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function shapeOf(options: DriverQueryOptions | undefined): QueryShape {
  return {
    rowMode: options?.rowMode ?? 'object',
    textTypes: Object.keys(options?.parsers ?? {}).map(Number),
  };
}
