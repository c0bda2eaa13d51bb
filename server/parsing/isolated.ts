// parseFile in a worker thread, for files from outside (uploads, connector downloads). In-process, the time limit
// is cooperative: it cannot stop a library stuck in one long synchronous step, and a file that makes a library
// build a huge tree could exhaust the server's heap. In a worker, the time limit terminates the thread and the
// heap is capped (resourceLimits), so the worst a hostile file can do is fail its own parse.
//
// Workers are reused: loading the parsers costs a few hundred milliseconds, so finished workers wait (unref'd,
// so they never keep the process alive) for the next file, and are dropped after a while idle.
import { Worker } from 'node:worker_threads';
import {
  CorruptFileError,
  FileTooLargeError,
  NoContentError,
  ParseTimeoutError,
  UnsupportedFileError,
} from './errors';
import type { ParseFileInput, ParseFileOptions, ParsedFile } from './index';
import { DEFAULT_PARSE_LIMITS } from './limits';
import type { ZipEntry } from './zip';

export interface WorkerRequest {
  id: number;
  input: ParseFileInput;
  options: Omit<ParseFileOptions, 'signal'>;
  /** Set when `input.bytes` is a zip: the file to parse is this entry of it, inflated in the worker. */
  entry?: ZipEntry;
}

export type WorkerReply =
  | { id: number; ok: true; result: ParsedFile; entryBytes?: Uint8Array }
  | { id: number; ok: false; error: { name: string; message: string; reason?: string; timeoutMs?: number } };

export interface ParserWorkersOptions {
  /** Heap a worker may use (V8 old generation); past it the parse fails with FileTooLargeError. Default 1024. */
  memoryLimitMb?: number;
  /** Finished workers kept for the next file. Default 2. */
  maxIdle?: number;
  /** How long a finished worker waits for another file before it is dropped. Default 60 s. */
  idleTimeoutMs?: number;
}

/** How long past its own time limit a worker gets to report a cooperative timeout before it is terminated. */
const TERMINATE_GRACE_MS = 1000;
const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
}

export class ParserWorkers {
  readonly #memoryLimitMb: number;
  readonly #maxIdle: number;
  readonly #idleTimeoutMs: number;
  readonly #idle: IdleWorker[] = [];
  readonly #busy = new Set<Worker>();
  #nextId = 1;

  constructor(options: ParserWorkersOptions = {}) {
    this.#memoryLimitMb = options.memoryLimitMb ?? 1024;
    this.#maxIdle = options.maxIdle ?? 2;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  }

  /** parseFile in a worker thread: same result and errors, plus a hard time limit and a heap cap. */
  async parse(input: ParseFileInput, options: ParseFileOptions = {}): Promise<ParsedFile> {
    return (await this.#run(input, options)).result;
  }

  /**
   * Inflates one entry of a zip (`input.bytes`) and parses it, both in a worker thread within the same limits,
   * so a bomb costs that thread, not the server's event loop. Answers the entry's bytes beside its text.
   */
  async parseArchiveEntry(
    input: ParseFileInput,
    entry: ZipEntry,
    options: ParseFileOptions = {},
  ): Promise<{ parsed: ParsedFile; bytes: Uint8Array }> {
    const reply = await this.#run(input, options, entry);
    return { parsed: reply.result, bytes: reply.entryBytes! };
  }

  #run(
    input: ParseFileInput,
    options: ParseFileOptions,
    entry?: ZipEntry,
  ): Promise<Extract<WorkerReply, { ok: true }>> {
    const { signal, ...rest } = options;
    signal?.throwIfAborted();
    const timeoutMs = rest.timeoutMs ?? DEFAULT_PARSE_LIMITS.timeoutMs;
    const worker = this.#acquire();
    const id = this.#nextId++;
    type Success = Extract<WorkerReply, { ok: true }>;

    return new Promise<Success>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: { result: Success } | { error: Error }, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.#busy.delete(worker);
        if (reusable) this.#release(worker);
        else void worker.terminate();
        if ('result' in outcome) resolve(outcome.result);
        else reject(outcome.error);
      };
      const onMessage = (reply: WorkerReply) => {
        if (reply.id !== id) return;
        finish(reply.ok ? { result: reply } : { error: rebuildError(reply.error) }, true);
      };
      const onError = (error: Error & { code?: string }) => {
        finish(
          {
            error:
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new FileTooLargeError('The file needs more memory to read than parsing may use.', {
                    cause: error,
                  })
                : error,
          },
          false,
        );
      };
      const onExit = (code: number) =>
        finish({ error: new Error(`parsing worker exited with code ${code}`) }, false);
      const onAbort = () => finish({ error: signal?.reason as Error }, false);
      const deadline = setTimeout(
        () => finish({ error: new ParseTimeoutError(timeoutMs) }, false),
        timeoutMs + TERMINATE_GRACE_MS,
      );

      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, input, options: rest, ...(entry ? { entry } : {}) } satisfies WorkerRequest);
    });
  }

  /** Terminates every worker, busy or idle; parses in flight fail. */
  async close(): Promise<void> {
    const workers = [...this.#busy, ...this.#idle.map((idle) => idle.worker)];
    for (const idle of this.#idle) clearTimeout(idle.timer);
    this.#idle.length = 0;
    this.#busy.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #acquire(): Worker {
    const idle = this.#idle.pop();
    let worker: Worker;
    if (idle) {
      clearTimeout(idle.timer);
      worker = idle.worker;
    } else {
      worker = new Worker(WORKER_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: this.#memoryLimitMb } });
      // a worker that dies while waiting for work must not be handed the next file
      worker.once('exit', () => {
        const index = this.#idle.findIndex((entry) => entry.worker === worker);
        if (index >= 0) clearTimeout(this.#idle.splice(index, 1)[0]!.timer);
      });
    }
    worker.ref();
    this.#busy.add(worker);
    return worker;
  }

  #release(worker: Worker): void {
    if (this.#idle.length >= this.#maxIdle) {
      void worker.terminate();
      return;
    }
    worker.unref();
    // the worker's exit handler takes it off the idle list
    const timer = setTimeout(() => void worker.terminate(), this.#idleTimeoutMs);
    timer.unref();
    this.#idle.push({ worker, timer });
  }
}

function rebuildError(error: Extract<WorkerReply, { ok: false }>['error']): Error {
  switch (error.name) {
    case 'NoContentError':
      return new NoContentError(error.reason);
    case 'CorruptFileError':
      return new CorruptFileError(error.reason);
    case 'UnsupportedFileError':
      return new UnsupportedFileError(error.message);
    case 'FileTooLargeError':
      return new FileTooLargeError(error.message);
    case 'ParseTimeoutError':
      return new ParseTimeoutError(error.timeoutMs ?? 0);
    default:
      return new Error(error.message);
  }
}

let shared: ParserWorkers | undefined;

/** parseFile in a shared set of worker threads (see ParserWorkers); what upload and sync jobs should call. */
export function parseFileIsolated(input: ParseFileInput, options?: ParseFileOptions): Promise<ParsedFile> {
  shared ??= new ParserWorkers();
  return shared.parse(input, options);
}

/** ParserWorkers.parseArchiveEntry in the shared worker threads. */
export function parseArchiveEntryIsolated(
  input: ParseFileInput,
  entry: ZipEntry,
  options?: ParseFileOptions,
): Promise<{ parsed: ParsedFile; bytes: Uint8Array }> {
  shared ??= new ParserWorkers();
  return shared.parseArchiveEntry(input, entry, options);
}
