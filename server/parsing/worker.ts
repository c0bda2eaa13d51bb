// Runs inside a parsing worker thread (see isolated.ts): parses each file it is sent and answers with the result,
// or with the error's class and fields so the main thread can rebuild it.
import { parentPort } from 'node:worker_threads';
import { ParseError, parseFile } from './index';
import type { WorkerReply, WorkerRequest } from './isolated';

const port = parentPort;
if (!port) throw new Error('server/parsing/worker.ts runs in a worker thread');

port.on('message', (request: WorkerRequest) => {
  parseFile(request.input, request.options).then(
    (result) => port.postMessage({ id: request.id, ok: true, result } satisfies WorkerReply),
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
