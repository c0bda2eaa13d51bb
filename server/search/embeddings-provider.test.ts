import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  embedText,
  startEmbeddingsServer,
  type EmbeddingsTestServer,
} from '../llm/testing/embeddings-server';
import {
  createEmbeddingClient,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_MIN_SIMILARITY,
  EmbeddingError,
  loadEmbeddingSettings,
  type EmbeddingSettings,
} from './embeddings-provider';

describe('loadEmbeddingSettings', () => {
  it('is null without a base URL, so vectors are off', () => {
    expect(loadEmbeddingSettings({})).toBeNull();
    expect(loadEmbeddingSettings({ EMBEDDING_BASE_URL: '  ', EMBEDDING_MODEL: 'x' })).toBeNull();
  });

  it('reads the provider, with defaults', () => {
    expect(loadEmbeddingSettings({ EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1/' })).toEqual({
      baseURL: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: DEFAULT_EMBEDDING_MODEL,
      dimensions: undefined,
      minSimilarity: DEFAULT_MIN_SIMILARITY,
    });
    expect(
      loadEmbeddingSettings({
        EMBEDDING_BASE_URL: 'https://api.example.com/v1',
        EMBEDDING_API_KEY: 'sk-test',
        EMBEDDING_MODEL: 'nomic-embed-text',
        EMBEDDING_DIMENSIONS: '768',
        EMBEDDING_MIN_SIMILARITY: '0.55',
      }),
    ).toMatchObject({ apiKey: 'sk-test', model: 'nomic-embed-text', dimensions: 768, minSimilarity: 0.55 });
  });

  it('refuses malformed values loudly', () => {
    expect(() => loadEmbeddingSettings({ EMBEDDING_BASE_URL: 'not a url' })).toThrow(/EMBEDDING_BASE_URL/);
    expect(() =>
      loadEmbeddingSettings({ EMBEDDING_BASE_URL: 'http://127.0.0.1/v1', EMBEDDING_DIMENSIONS: 'many' }),
    ).toThrow(/EMBEDDING_DIMENSIONS/);
    expect(() =>
      loadEmbeddingSettings({ EMBEDDING_BASE_URL: 'http://127.0.0.1/v1', EMBEDDING_MIN_SIMILARITY: '2' }),
    ).toThrow(/EMBEDDING_MIN_SIMILARITY/);
  });
});

describe('the embedding client against a local OpenAI-compatible server', () => {
  let server: EmbeddingsTestServer;
  let settings: EmbeddingSettings;
  const fast = { backoffMs: 5 };

  beforeAll(async () => {
    server = await startEmbeddingsServer({ dimensions: 32 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.failures.length = 0;
    server.delayMs = 0;
    server.forceDimensions = null;
    settings = {
      baseURL: server.url,
      apiKey: 'sk-local',
      model: 'test-embed',
      dimensions: undefined,
      minSimilarity: 0.3,
    };
  });

  it('sends batches in the OpenAI format and answers one vector per input, in input order', async () => {
    const client = createEmbeddingClient(settings, { ...fast, batchSize: 4 });
    const texts = Array.from({ length: 10 }, (_, i) => `document number ${i} about topic${i}`);
    const vectors = await client.embed(texts);
    expect(server.requests.map((request) => request.input.length)).toEqual([4, 4, 2]);
    expect(server.requests[0]).toMatchObject({ model: 'test-embed', authorization: 'Bearer sk-local' });
    expect(server.requests[0]!.dimensions).toBeUndefined();
    // the server answers its data in reverse order: the client must place each by its index
    expect(vectors).toEqual(texts.map((text) => embedText(text, 32)));
  });

  it('asks for the configured dimensions and checks every vector has them', async () => {
    const client = createEmbeddingClient({ ...settings, dimensions: 16 }, fast);
    const [vector] = await client.embed(['hello']);
    expect(vector).toHaveLength(16);
    expect(server.requests[0]!.dimensions).toBe(16);

    server.forceDimensions = 8;
    const error = await client.embed(['hello']).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).message).toMatch(/8 dimensions, expected 16/);
    expect((error as EmbeddingError).retryable).toBe(false);
  });

  it('retries rate limits and server errors with back-off, then succeeds', async () => {
    server.failures.push({ status: 429, retryAfterSeconds: 0 }, { status: 503 }, { status: 500 });
    const client = createEmbeddingClient(settings, fast);
    const vectors = await client.embed(['car']);
    expect(vectors).toEqual([embedText('car', 32)]);
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry a request the provider refuses', async () => {
    server.failures.push({ status: 400, message: 'input too long' });
    const client = createEmbeddingClient(settings, fast);
    const error = await client.embed(['car']).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).retryable).toBe(false);
    expect((error as EmbeddingError).message).toMatch(/400.*input too long/);
    expect(server.requests).toHaveLength(1);
    // a refused input is no sign of an outage: the next call goes through
    expect(await client.embed(['car'])).toHaveLength(1);
  });

  it('times out a slow provider, then skips it for a cool-down instead of waiting on every batch', async () => {
    server.delayMs = 300;
    const client = createEmbeddingClient(settings, { ...fast, cooldownMs: 60_000 });
    const error = await client.embed(['car'], { timeoutMs: 50, retries: 1 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).message).toMatch(/timed out after 50 ms/);
    expect((error as EmbeddingError).retryable).toBe(true);
    expect(server.requests).toHaveLength(2);

    server.delayMs = 0;
    const skipped = await client.embed(['car']).catch((err: unknown) => err);
    expect((skipped as EmbeddingError).message).toMatch(/skipped after a recent failure/);
    expect(server.requests).toHaveLength(2);
  });

  it('reports an unreachable provider as retryable', async () => {
    // a port that was just free: nothing listens there
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = createEmbeddingClient({ ...settings, baseURL: `http://127.0.0.1:${port}/v1` }, fast);
    const error = await client.embed(['car'], { retries: 1 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).message).toMatch(/unreachable/);
    expect((error as EmbeddingError).retryable).toBe(true);
  });

  it('embeds concept words near each other in the fake model (what the search tests rely on)', () => {
    const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
    const dims = 64;
    expect(cosine(embedText('automobile', dims), embedText('car maintenance', dims))).toBeGreaterThan(0.5);
    expect(cosine(embedText('automobile', dims), embedText('quarterly revenue', dims))).toBeLessThan(0.3);
  });
});
