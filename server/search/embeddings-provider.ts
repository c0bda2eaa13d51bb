/**
 * The embedding provider (DESIGN §4): any OpenAI-compatible `POST /embeddings` endpoint (OpenAI, Ollama, vLLM,
 * LiteLLM, TEI), configured from the environment. Inputs go in batches; each request has a time-out and is retried
 * with exponential back-off on 429, 5xx, time-outs and network errors; every answer is checked for one vector per
 * input, all of the expected length. After a failure that survived its retries the provider is considered down for
 * a while, so indexing does not wait on it batch after batch (chunks stay searchable by BM25 and are embedded later).
 */
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();
const optionalNumber = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? Number(value) : undefined));

const embeddingEnvSchema = z.object({
  /** The API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; unset turns vectors off. */
  EMBEDDING_BASE_URL: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(z.url().optional())
    .optional(),
  EMBEDDING_API_KEY: optionalText,
  EMBEDDING_MODEL: optionalText,
  /** Sent as the request's `dimensions`; unset, the length is learned from the provider's first answer. */
  EMBEDDING_DIMENSIONS: optionalNumber.pipe(z.number().int().min(1).max(16_000).optional()),
  /** Nearest chunks less similar than this (cosine) are not hits: every query has nearest neighbours. */
  EMBEDDING_MIN_SIMILARITY: optionalNumber.pipe(z.number().min(-1).max(1).optional()),
});

export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
/**
 * For OpenAI's text-embedding-3 models unrelated texts score about 0.1 and related ones 0.3 and up; models whose
 * scores bunch higher (many open models) want a higher value.
 */
export const DEFAULT_MIN_SIMILARITY = 0.3;

export interface EmbeddingSettings {
  baseURL: string;
  apiKey: string | undefined;
  model: string;
  dimensions: number | undefined;
  minSimilarity: number;
}

/** Null when no provider is configured. Throws on a malformed value, so a typo fails loudly. */
export function loadEmbeddingSettings(env: NodeJS.ProcessEnv = process.env): EmbeddingSettings | null {
  const parsed = embeddingEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid embedding settings: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  if (!e.EMBEDDING_BASE_URL) return null;
  return {
    baseURL: e.EMBEDDING_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.EMBEDDING_API_KEY,
    model: e.EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL,
    dimensions: e.EMBEDDING_DIMENSIONS,
    minSimilarity: e.EMBEDDING_MIN_SIMILARITY ?? DEFAULT_MIN_SIMILARITY,
  };
}

export class EmbeddingError extends Error {
  constructor(
    message: string,
    /** Worth trying again later (rate limit, server error, time-out, network). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

export interface EmbedOptions {
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  retries?: number;
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** Inputs per request (OpenAI accepts up to 2,048; smaller batches keep each request well under time-outs). */
  batchSize?: number;
  /** First back-off; doubles per retry, with jitter (default 500 ms). */
  backoffMs?: number;
  /** How long the provider is skipped after a failure that survived its retries (default 60 s). */
  cooldownMs?: number;
}

export interface EmbeddingClient {
  readonly settings: EmbeddingSettings;
  /** One vector per text, in order. Throws EmbeddingError. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
}

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

const RETRY_AFTER_CAP_MS = 30_000;

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(Math.max(seconds, 0) * 1000, RETRY_AFTER_CAP_MS);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.min(Math.max(date - Date.now(), 0), RETRY_AFTER_CAP_MS);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new EmbeddingError('embedding aborted', false));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new EmbeddingError('embedding aborted', false));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createEmbeddingClient(
  settings: EmbeddingSettings,
  options: ClientOptions = {},
): EmbeddingClient {
  const batchSize = options.batchSize ?? 64;
  const backoffMs = options.backoffMs ?? 500;
  const cooldownMs = options.cooldownMs ?? 60_000;
  let downUntil = 0;
  let downReason = '';

  async function request(
    input: readonly string[],
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ vectors: number[][] } | { error: EmbeddingError; waitMs: number | null }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(`${settings.baseURL}/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: settings.model,
          input,
          encoding_format: 'float',
          ...(settings.dimensions ? { dimensions: settings.dimensions } : {}),
        }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw new EmbeddingError('embedding aborted', false);
      const reason = timeout.aborted ? `timed out after ${timeoutMs} ms` : (err as Error).message;
      return { error: new EmbeddingError(`embedding provider unreachable: ${reason}`, true), waitMs: null };
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 300);
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      return {
        error: new EmbeddingError(`embedding provider answered ${response.status}: ${detail}`, retryable),
        waitMs: retryAfterMs(response.headers.get('retry-after')),
      };
    }
    const parsed = responseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) {
      return {
        error: new EmbeddingError('embedding provider answered an unexpected body', false),
        waitMs: null,
      };
    }
    const vectors: number[][] = new Array<number[]>(input.length);
    for (const item of parsed.data.data) if (item.index < input.length) vectors[item.index] = item.embedding;
    if (parsed.data.data.length !== input.length || vectors.some((vector) => vector === undefined)) {
      return {
        error: new EmbeddingError(
          `embedding provider answered ${parsed.data.data.length} vectors for ${input.length} inputs`,
          false,
        ),
        waitMs: null,
      };
    }
    const expected = settings.dimensions ?? vectors[0]!.length;
    const wrong = vectors.find(
      (vector) => vector.length !== expected || vector.some((x) => !Number.isFinite(x)),
    );
    if (wrong || expected === 0) {
      return {
        error: new EmbeddingError(
          `embedding provider answered a vector of ${wrong?.length ?? 0} dimensions, expected ${expected}`,
          false,
        ),
        waitMs: null,
      };
    }
    return { vectors };
  }

  async function embedBatch(input: readonly string[], options: EmbedOptions): Promise<number[][]> {
    const retries = options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const result = await request(input, options.timeoutMs ?? 30_000, options.signal);
      if ('vectors' in result) return result.vectors;
      if (!result.error.retryable) throw result.error;
      if (attempt >= retries) {
        downUntil = Date.now() + cooldownMs;
        downReason = result.error.message;
        throw result.error;
      }
      const exponential = backoffMs * 2 ** attempt * (0.5 + Math.random() / 2);
      await sleep(Math.max(result.waitMs ?? 0, exponential), options.signal);
    }
  }

  return {
    settings,
    async embed(texts, options = {}) {
      if (Date.now() < downUntil) {
        throw new EmbeddingError(`embedding provider skipped after a recent failure (${downReason})`, true);
      }
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        out.push(...(await embedBatch(texts.slice(i, i + batchSize), options)));
      }
      // the provider works again: forget an older cool-down
      downUntil = 0;
      return out;
    },
  };
}
