/**
 * A Brave Search style web search API on 127.0.0.1 for tests: `GET /res/v1/web/search?q=…&count=…` with the
 * X-Subscription-Token header, answering `{ web: { results: [{ title, url, description }] } }`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type WebSearchTestServer = {
  url: string;
  apiKey: string;
  queries: { q: string; count: number; token: string | undefined }[];
  results: { title: string; url: string; description: string }[];
  delayMs: number;
  close(): Promise<void>;
};

export async function startWebSearchServer(apiKey = 'brave-test-key'): Promise<WebSearchTestServer> {
  const state: WebSearchTestServer = {
    url: '',
    apiKey,
    queries: [],
    results: [],
    delayMs: 0,
    close: async () => {},
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const token = request.headers['x-subscription-token'];
    if (url.pathname !== '/res/v1/web/search') {
      response.writeHead(404).end();
      return;
    }
    state.queries.push({
      q: url.searchParams.get('q') ?? '',
      count: Number(url.searchParams.get('count')),
      token: typeof token === 'string' ? token : undefined,
    });
    if (token !== state.apiKey) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ type: 'search', web: { results: state.results } }));
    }, state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
