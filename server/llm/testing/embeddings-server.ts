/**
 * A real OpenAI-compatible `POST /v1/embeddings` server on 127.0.0.1 for tests (DESIGN §9), reached through
 * EMBEDDING_BASE_URL exactly as Scout reaches OpenAI, Ollama or vLLM. Its vectors are deterministic: a hashed bag
 * of words in which every word first maps to its concept (`concepts`), so texts that share a concept but no word
 * ("automobile" / "car") are near each other, and texts that share nothing are orthogonal. Failures are scripted
 * (HTTP errors for the next n requests, delays, vectors of the wrong length); every request is recorded.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, readBody } from './http';

export type RecordedEmbeddingRequest = {
  model: string;
  input: string[];
  dimensions: number | undefined;
  authorization: string | undefined;
};

export type EmbeddingFailure = { status: number; message?: string; retryAfterSeconds?: number };

export type EmbeddingsTestServer = {
  /** The base URL to set as EMBEDDING_BASE_URL (ends with /v1). */
  url: string;
  requests: RecordedEmbeddingRequest[];
  /** Answer these errors to the next requests, one each, in order. */
  failures: EmbeddingFailure[];
  /** Wait this long before answering each request. */
  delayMs: number;
  /** Answer vectors of this length whatever was asked (a misconfigured model). */
  forceDimensions: number | null;
  close(): Promise<void>;
};

/** Words that carry no meaning in the fake model, so "the" does not make every text similar. */
const STOP_WORDS = new Set(
  'a an and are as at be by for from has have how i in is it its of on or our that the this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Default concept groups: every word of a group embeds as the group's first word. */
export const DEFAULT_CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  car: ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles'],
  holiday: ['holiday', 'holidays', 'vacation', 'vacations', 'leave', 'pto'],
  salary: ['salary', 'salaries', 'compensation', 'pay', 'payroll', 'wage', 'wages'],
  laptop: ['laptop', 'laptops', 'notebook', 'notebooks', 'computer', 'computers'],
};

function conceptIndex(concepts: Readonly<Record<string, readonly string[]>>): Map<string, string> {
  const index = new Map<string, string>();
  for (const [concept, words] of Object.entries(concepts)) for (const word of words) index.set(word, concept);
  return index;
}

/** The fake model: L2-normalised counts of hashed concepts, each hashed to a signed coordinate. */
export function embedText(
  text: string,
  dimensions: number,
  concepts: Readonly<Record<string, readonly string[]>> = DEFAULT_CONCEPTS,
): number[] {
  const index = conceptIndex(concepts);
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    const digest = createHash('sha256')
      .update(index.get(word) ?? word)
      .digest();
    const slot = digest.readUInt32BE(0) % dimensions;
    vector[slot]! += (digest[4]! & 1) === 0 ? 1 : -1;
  }
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((value) => value / norm) : vector;
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export async function startEmbeddingsServer(
  options: { dimensions?: number; concepts?: Readonly<Record<string, readonly string[]>> } = {},
): Promise<EmbeddingsTestServer> {
  const defaultDimensions = options.dimensions ?? 64;
  const concepts = options.concepts ?? DEFAULT_CONCEPTS;
  const state: EmbeddingsTestServer = {
    url: '',
    requests: [],
    failures: [],
    delayMs: 0,
    forceDimensions: null,
    close: async () => {},
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST' || !request.url?.endsWith('/embeddings')) {
      sendJson(response, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      return;
    }
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
    const recorded: RecordedEmbeddingRequest = {
      model: String(body.model),
      input,
      dimensions: typeof body.dimensions === 'number' ? body.dimensions : undefined,
      authorization: request.headers.authorization,
    };
    state.requests.push(recorded);
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const failure = state.failures.shift();
    if (failure) {
      sendJson(
        response,
        failure.status,
        { error: { message: failure.message ?? `scripted failure ${failure.status}`, type: 'server_error' } },
        failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {},
      );
      return;
    }
    const dimensions = state.forceDimensions ?? recorded.dimensions ?? defaultDimensions;
    sendJson(response, 200, {
      object: 'list',
      // OpenAI documents `index` as the input's position; answer out of order so clients must honour it
      data: input
        .map((text, index) => ({
          object: 'embedding',
          index,
          embedding: embedText(text, dimensions, concepts),
        }))
        .reverse(),
      model: recorded.model,
      usage: { prompt_tokens: input.length, total_tokens: input.length },
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.end();
    });
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}
