// Runs inside a parsing worker thread (see isolated.ts): parses each file it is sent and answers with the result,
// or with the error's class and fields so the main thread can rebuild it.
import { parentPort } from 'node:worker_threads';
import { ParseError, parseFile } from './index';
import type { WorkerReply, WorkerRequest } from './isolated';
import { readZipEntry } from './zip';

const port = parentPort;
if (!port) throw new Error('server/parsing/worker.ts runs in a worker thread');

async function handle({
  input,
  options,
  entry,
}: WorkerRequest): Promise<Omit<WorkerReply & { ok: true }, 'id'>> {
  if (!entry) return { ok: true, result: await parseFile(input, options) };
  // inflated with the size the directory declares as a hard cap, so a lying entry cannot balloon
  const entryBytes = readZipEntry(input.bytes, entry);
  return { ok: true, result: await parseFile({ ...input, bytes: entryBytes }, options), entryBytes };
}

port.on('message', (request: WorkerRequest) => {
  handle(request).then(
    (reply) => {
      const bytes = reply.entryBytes;
      // handed over rather than copied, unless the bytes share their buffer (a stored entry is a view of the zip)
      const own = bytes && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      port.postMessage(
        { id: request.id, ...reply } satisfies WorkerReply,
        own ? [bytes.buffer as ArrayBuffer] : [],
      );
    },
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: describeError(error) } satisfies WorkerReply),
  );
});

function describeError(error: unknown): Extract<WorkerReply, { ok: false }>['error'] {
  if (error instanceof ParseError) {
    return {
      name: error.name,
      message: error.message,
      reason: 'reason' in error ? (error.reason as string | undefined) : undefined,
      timeoutMs: 'timeoutMs' in error ? (error.timeoutMs as number) : undefined,
    };
  }
  return { name: 'Error', message: error instanceof Error ? error.message : String(error) };
}
