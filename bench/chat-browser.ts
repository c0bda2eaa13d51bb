// bench:chat's browser section: Enter in the question box → the answer's first word painted, in Chromium against the
// built SPA, with no model (the extractive answer). Each step is stamped where it happens, on the epoch clock both
// processes share (performance.timeOrigin + performance.now()): the page stamps Enter, the QUERY frame leaving, the
// first CHUNK frame arriving and the frame that paints the first word; the server's process stamps its socket's
// frames (observeChatFrames), so the total splits into client, network and server parts.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import type { ServerMessage } from '../common/api/chat';
import { CHAT_QUESTION_RATE_LIMIT } from '../common/limits';
import type { LoginTokens } from '../common/api/session';
import { DEFAULT_SPA_DIR } from '../server/http/spa';
import { launchBrowser, seedSession } from '../e2e/browser';
import { ms, summarise } from './stats';

/** What the server's process saw of one question on its socket (epoch ms). */
export type ServerStamps = {
  /** The socket's upgrade, when this question opened it. */
  socketOpened: number | null;
  queryReceived: number;
  /** SET_STAGE SENDING_REQUEST: the token checks are done. */
  firstFrameSent: number;
  acceptedSent: number;
  /** SET_STAGE BUILDING_PROMPT: retrieval is done. */
  retrievalDone: number;
  firstChunkSent: number;
};

type PageMarks = { enter: number; querySent: number; chunkReceived: number; painted: number };

const now = () => performance.timeOrigin + performance.now();

/**
 * In the server's process: stamps every chat socket's QUERY and the frames it answers with, and hands each question's
 * stamps to `report` once its first CHUNK has gone out. Listens beside the chat handler; changes nothing it sends.
 */
export function observeChatFrames(app: FastifyInstance, report: (stamps: ServerStamps) => void): void {
  app.websocketServer.on('connection', (socket) => {
    let opened: number | null = now();
    let current: Partial<ServerStamps> | null = null;
    socket.on('message', (data) => {
      const type = (JSON.parse(String(data)) as { type?: string }).type;
      if (type !== 'QUERY') return;
      current = { socketOpened: opened, queryReceived: now() };
      opened = null;
    });
    const send = socket.send.bind(socket);
    socket.send = ((data: string, ...rest: unknown[]) => {
      const at = now();
      const message = JSON.parse(data) as ServerMessage;
      if (current) {
        if (message.type === 'SET_STAGE' && message.stage === 'SENDING_REQUEST') current.firstFrameSent = at;
        if (message.type === 'QUERY_ACCEPTED') current.acceptedSent = at;
        if (message.type === 'SET_STAGE' && message.stage === 'BUILDING_PROMPT') current.retrievalDone = at;
        if (message.type === 'CHUNK') {
          current.firstChunkSent = at;
          report(current as ServerStamps);
          current = null;
        }
      }
      return (send as (...args: unknown[]) => void)(data, ...rest);
    }) as typeof socket.send;
  });
}

/**
 * Runs in the page before the app: stamps Enter in the question box, the chat socket's QUERY and first CHUNK, and the
 * frame that paints the new answer's first word. Plain JavaScript text: the page runs it as it is, untranspiled.
 */
const INSTRUMENT_PAGE = `(() => {
  const stamp = () => performance.timeOrigin + performance.now();
  const bench = { marks: {}, sockets: 0, answersAtEnter: 0 };
  window.__chatBench = bench;
  const typeOf = (data) => (typeof data === 'string' ? JSON.parse(data).type : null);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (String(url).includes('/_chat_ws')) bench.sockets += 1;
      this.addEventListener('message', (event) => {
        if (bench.marks.enter === undefined || bench.marks.chunkReceived !== undefined) return;
        if (typeOf(event.data) === 'CHUNK') bench.marks.chunkReceived = stamp();
      });
    }
    send(data) {
      if (bench.marks.enter !== undefined && bench.marks.querySent === undefined && typeOf(data) === 'QUERY') {
        bench.marks.querySent = stamp();
      }
      super.send(data);
    }
  };
  const answers = () => document.querySelectorAll('[data-testid="assistant-message"]');
  // The new answer is the last one once there are more than at Enter; its first word shows with its answer text.
  const shown = () => {
    const list = answers();
    if (list.length <= bench.answersAtEnter) return false;
    const text = list[list.length - 1].querySelector('[data-testid="answer-text"]')?.textContent ?? '';
    return text.trim() !== '';
  };
  new MutationObserver(() => {
    if (bench.marks.enter === undefined || bench.marks.painted !== undefined || !shown()) return;
    bench.marks.painted = -1;
    // the frame that renders it runs its animation callbacks first and paints right after them
    requestAnimationFrame(() => setTimeout(() => (bench.marks.painted = stamp())));
  }).observe(document, { subtree: true, childList: true, characterData: true });
  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key !== 'Enter' || event.shiftKey || event.target?.dataset?.testid !== 'question-textarea') return;
      bench.marks = { enter: stamp() };
      bench.answersAtEnter = answers().length;
    },
    true,
  );
})();`;

type Bench = { marks: Partial<PageMarks>; sockets: number };
const benchOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __chatBench: Bench }).__chatBench);

/**
 * Asks `warmUp + questions` questions one after another in one chat screen, as a member would (typing, Enter, reading
 * the answer to its end), and prints the split. `nextStamps` yields the server's stamps of the next question.
 */
export async function browserFirstWord(options: {
  url: string;
  tokens: LoginTokens;
  queries: readonly string[];
  questions: number;
  warmUp: number;
  nextStamps: () => Promise<ServerStamps>;
}): Promise<void> {
  if (!existsSync(path.join(DEFAULT_SPA_DIR, 'index.html'))) {
    console.log('Enter → first word painted: skipped, the web app is not built (npm run build)');
    return;
  }
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await seedSession(page, options.tokens);
    await page.addInitScript({ content: INSTRUMENT_PAGE });
    await page.goto(`${options.url}/chat`);
    const box = page.getByTestId('question-textarea');
    await box.waitFor({ timeout: 60_000 });
    const rows: { marks: PageMarks; server: ServerStamps }[] = [];
    const asked: number[] = [];
    for (let i = 0; i < options.warmUp + options.questions; i++) {
      // A member may ask CHAT_QUESTION_RATE_LIMIT.max questions a window: past it the server refuses the question
      // and no answer comes, so the bench waits as a member would, outside the measured span.
      const { max, windowMs } = CHAT_QUESTION_RATE_LIMIT;
      if (asked.length >= max)
        await sleep(Math.max(0, asked[asked.length - max]! + windowMs + 250 - Date.now()));
      asked.push(Date.now());
      await box.fill(options.queries[i % options.queries.length]!);
      const server = options.nextStamps();
      await box.press('Enter');
      await page.waitForFunction(
        () => ((window as unknown as { __chatBench: Bench }).__chatBench.marks.painted ?? -1) > 0,
        null,
        { timeout: 60_000, polling: 50 },
      );
      const stamps = await Promise.race([
        server,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the server reported no first CHUNK')), 60_000).unref(),
        ),
      ]);
      const answer = page.getByTestId('assistant-message').last();
      await page.waitForFunction(
        (element) => element?.getAttribute('data-status') !== 'PENDING',
        await answer.elementHandle(),
        { timeout: 60_000, polling: 50 },
      );
      await page.getByTestId('send').waitFor({ timeout: 60_000 });
      if (i >= options.warmUp) rows.push({ marks: (await benchOf(page)).marks as PageMarks, server: stamps });
      // a member reads the answer before asking again
      await page.waitForTimeout(500);
    }
    const sockets = (await benchOf(page)).sockets;
    const line = (name: string, samples: number[]) => {
      const s = summarise(samples);
      console.log(`  ${name.padEnd(44)} p50 ${ms(s.p50).padStart(11)}  p95 ${ms(s.p95).padStart(11)}`);
    };
    const opened = rows.filter((row) => row.server.socketOpened !== null);
    console.log(
      `Enter → first answer word painted, ${rows.length} questions in Chromium after ${options.warmUp} warm-up, ` +
        `no model (${sockets} chat sockets opened for ${options.warmUp + options.questions} questions):`,
    );
    line(
      'total (Enter → painted)',
      rows.map(({ marks }) => marks.painted - marks.enter),
    );
    line(
      'Enter → QUERY sent (page)',
      rows.map(({ marks }) => marks.querySent - marks.enter),
    );
    if (opened.length > 0) {
      line(
        `  of which Enter → socket opened (${opened.length} questions)`,
        opened.map(({ marks, server }) => server.socketOpened! - marks.enter),
      );
    }
    line(
      'QUERY sent → received (server)',
      rows.map(({ marks, server }) => server.queryReceived - marks.querySent),
    );
    line(
      'received → first frame sent (token checks)',
      rows.map(({ server }) => server.firstFrameSent - server.queryReceived),
    );
    line(
      '→ QUERY_ACCEPTED sent (checks, rows)',
      rows.map(({ server }) => server.acceptedSent - server.firstFrameSent),
    );
    line(
      '→ retrieval done (BUILDING_PROMPT sent)',
      rows.map(({ server }) => server.retrievalDone - server.acceptedSent),
    );
    line(
      '→ first CHUNK sent',
      rows.map(({ server }) => server.firstChunkSent - server.retrievalDone),
    );
    line(
      'first CHUNK sent → received (page)',
      rows.map(({ marks, server }) => marks.chunkReceived - server.firstChunkSent),
    );
    line(
      'received → painted (page)',
      rows.map(({ marks }) => marks.painted - marks.chunkReceived),
    );
  } finally {
    await browser.close();
  }
}
