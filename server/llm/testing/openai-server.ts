/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests (DESIGN §9): `POST /v1/chat/completions`, streaming
 * (server-sent `data:` chunks in OpenAI's format, ending with `data: [DONE]`) and not, with scripted answers,
 * delays, HTTP errors and a connection dropped mid-stream. Scout reaches it through OPENAI_COMPATIBLE_BASE_URL,
 * exactly as it reaches Ollama or vLLM. Every request is recorded, so a test can read the prompt the model got.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, readBody } from './http';

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool' | 'developer';

export type RecordedRequest = {
  model: string;
  stream: boolean;
  messages: { role: ChatRole; content: string }[];
  body: Record<string, unknown>;
  authorization: string | undefined;
  /** The client went away before the answer ended (Scout aborted the call). */
  aborted: boolean;
};

export type ScriptedReply = {
  /** The answer; split into `chunks` of a few characters when those are not given. */
  text?: string;
  chunks?: string[];
  /** Before each chunk. */
  delayMs?: number;
  /** Before the first chunk (after the response headers). */
  firstDelayMs?: number;
  /** Answer this HTTP error instead. */
  error?: { status: number; message: string };
  /** Stream this many chunks, then drop the connection. */
  dropAfterChunks?: number;
  /**
   * Instead of `text`/`chunks`: each chunk is asked for as it is sent (null ends the answer), so a benchmark can
   * stamp the time into it and decide while streaming how long the answer goes on.
   */
  live?: (index: number) => string | null;
};

export type Responder = (request: RecordedRequest) => ScriptedReply;

export type OpenAiTestServer = {
  /** The base URL to set as OPENAI_COMPATIBLE_BASE_URL (ends with /v1). */
  url: string;
  requests: RecordedRequest[];
  respond: Responder;
  close(): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join('');
  }
  return '';
}

/** Splits a text into pieces of about `size` characters, cutting after spaces where it can. */
export function splitText(text: string, size = 8): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const space = rest.lastIndexOf(' ', size);
    const cut = space > 0 ? space + 1 : size;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

export async function startOpenAiServer(options: { respond?: Responder } = {}): Promise<OpenAiTestServer> {
  const requests: RecordedRequest[] = [];
  const state: OpenAiTestServer = {
    url: '',
    requests,
    respond: options.respond ?? (() => ({ text: 'Hello from the test model.' })),
    close: async () => {},
  };
  let sequence = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    const recorded: RecordedRequest = {
      model: String(body.model),
      stream: body.stream === true,
      messages: (Array.isArray(body.messages) ? body.messages : []).map(
        (message: Record<string, unknown>) => ({
          role: message.role as ChatRole,
          content: contentText(message.content),
        }),
      ),
      body,
      authorization: request.headers.authorization,
      aborted: false,
    };
    requests.push(recorded);
    response.on('close', () => {
      if (!response.writableFinished) recorded.aborted = true;
    });
    const reply = state.respond(recorded);
    const id = `chatcmpl-${++sequence}`;
    const created = Math.floor(Date.now() / 1000);
    if (reply.error) {
      response.writeHead(reply.error.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: reply.error.message, type: 'server_error' } }));
      return;
    }
    const text = reply.chunks ? reply.chunks.join('') : (reply.text ?? '');
    if (!recorded.stream) {
      if (reply.firstDelayMs) await sleep(reply.firstDelayMs);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: recorded.model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const send = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: recorded.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    send(chunk({ role: 'assistant', content: '' }, null));
    if (reply.firstDelayMs) await sleep(reply.firstDelayMs);
    if (reply.live) {
      for (let index = 0; ; index++) {
        if (reply.delayMs) await sleep(reply.delayMs);
        if (response.destroyed) return;
        const piece = reply.live(index);
        if (piece === null) break;
        send(chunk({ content: piece }, null));
      }
      send(chunk({}, 'stop'));
      response.end('data: [DONE]\n\n');
      return;
    }
    const pieces = reply.chunks ?? splitText(text);
    for (const [index, piece] of pieces.entries()) {
      if (response.destroyed) return;
      if (reply.dropAfterChunks !== undefined && index >= reply.dropAfterChunks) {
        response.destroy();
        return;
      }
      if (reply.delayMs) await sleep(reply.delayMs);
      if (response.destroyed) return;
      send(chunk({ content: piece }, null));
    }
    send(chunk({}, 'stop'));
    send({
      id,
      object: 'chat.completion.chunk',
      created,
      model: recorded.model,
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: pieces.length, total_tokens: 10 + pieces.length },
    });
    response.end('data: [DONE]\n\n');
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
    });
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}
