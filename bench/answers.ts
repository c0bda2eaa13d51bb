// `npm run bench:answers [-- DIR] [--only extractive|model]`: search and answer quality on a set in the workplace-dev
// format (docs/, questions.jsonl, acl.json; DIR defaults to ../shared/eval/workplace-dev beside the repository).
// For each mode, a whole Scout server (the real startServer path, embedded store in memory) runs in a child process
// with a fresh org of the set's members and an admin who, as a customer would, creates an API key, connects a Custom
// API app and pushes every page with its ACL through the public push API. Then each question goes to `_search` and to
// `/_chat_ws` as the README's member, and the README's leak test asks every private question, and searches for every
// private page's title, as each member who may not see it. Two modes: no model (the extractive answer) and the
// OpenAI-compatible test server on 127.0.0.1 answering from the prompt alone (bench/answers-model.ts), whose recorded
// requests are the "what was sent to the model" of "facts in prompt". Prints per kind and overall hit@1, hit@5,
// MRR@10, facts in prompt, answer and pass (bench/answers-metrics.ts), the questions missed, the leak test, and one
// summary line per mode ending in the pass rate. Any leak fails the run (exit 1).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerMessage } from '../common/api/chat';
import { CUSTOM_API_MAX_DOCUMENTS, type CustomApiDocument } from '../common/api/custom-api';
import type { AutosuggestResponse, SearchResponse } from '../common/api/search';
import { startSession } from '../server/auth/sessions';
import { deriveTokenKey } from '../server/auth/tokens';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../server/chat/related';
import { ChatTestClient } from '../server/chat/testing/chat-client';
import { loadConfig } from '../server/config';
import { generateSecretKey, parseSecretKey } from '../server/db/secrets';
import { MEMORY_DATA_DIR, openStore } from '../server/db/store';
import { startOpenAiServer, type OpenAiTestServer } from '../server/llm/testing/openai-server';
import { createLogger } from '../server/logger';
import { startServer } from '../server/serve';
import { createOrg, createUser } from '../server/testing/fixtures';
import { callApi } from '../server/testing/server';
import {
  containsFact,
  factInPageText,
  figuresByKind,
  firstRelevantRank,
  formatTable,
  leaksIn,
  privateTrace,
  summaryLine,
  type Acl,
  type Outcome,
  type PrivateTrace,
  type Question,
} from './answers-metrics';
import { answerFromPrompt } from './answers-model';
import { envWithoutModels } from './child-env';

const repoRoot = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const ONLY = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
/** The README's member for a question without `visible_to`. */
const DEFAULT_MEMBER = 'ben@acme.test';
/** The customer's admin who sets the connection up; not one of the set's members, so it changes no one's view. */
const OPERATOR = 'it-admin';
const ANSWER_TIMEOUT_MS = 180_000;

type Mode = 'extractive' | 'model';
type Role = { domain: string; emails: string[]; operator: string; secretKey: string };
type Ready = { url: string; refreshTokens: Record<string, string> };

type Page = { file: string; title: string; url: string; text: string; readers: string[] | 'org' };
type EvalSet = { name: string; pages: Page[]; questions: Question[]; acl: Acl; domain: string };

function readSet(dir: string): EvalSet {
  const acl = JSON.parse(readFileSync(path.join(dir, 'acl.json'), 'utf8')) as Acl;
  const questions = readFileSync(path.join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Question);
  if (!acl.members.includes(DEFAULT_MEMBER))
    throw new Error(`${dir}: acl.json lacks the README's ${DEFAULT_MEMBER}`);
  const domain = acl.members[0]!.split('@')[1]!;
  const pages = readdirSync(path.join(dir, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file): Page => {
      const text = readFileSync(path.join(dir, 'docs', file), 'utf8');
      // what a customer's sync would call the page: its first heading, else its file name
      const heading = /^#{1,6}\s+(.+)$/m.exec(text)?.[1]?.replaceAll('*', '').trim();
      return {
        file,
        title: heading || file.replace(/\.md$/, ''),
        url: `https://handbook.${domain}/${file.replace(/\.md$/, '')}`,
        text,
        readers: acl.private[file] ?? 'org',
      };
    });
  return { name: path.basename(dir), pages, questions, acl, domain };
}

const mayRead = (page: Page, email: string) => page.readers === 'org' || page.readers.includes(email);

/** The child: a Scout server on a fresh in-memory store, with the set's members and the operator signed in. */
async function serve(role: Role): Promise<void> {
  const logger = createLogger('silent');
  const store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR, logger });
  // the custom-api needs the API access feature (ENTERPRISE) and the API keys screen's flag
  const org = await createOrg(store.db, { domain: role.domain, flags: { apiKeysEnabled: true } });
  const tokenKey = deriveTokenKey(parseSecretKey(role.secretKey));
  const refreshTokens: Record<string, string> = {};
  for (const email of [role.operator, ...role.emails]) {
    const user = await createUser(store.db, org, { email, admin: email === role.operator });
    const client = { ip: '127.0.0.1', userAgent: 'bench:answers' };
    refreshTokens[email] = (await startSession({ store, tokenKey }, user, client)).refresh_token;
  }
  const config = {
    ...loadConfig({ SCOUT_SECRET_KEY: role.secretKey, LOG_LEVEL: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    dataDir: MEMORY_DATA_DIR,
  };
  const server = await startServer(config, { logger, logLevel: 'silent', store });
  process.send!({ url: server.url, refreshTokens } satisfies Ready);
  await once(process, 'disconnect');
  await server.close();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A JSON call that waits out the per-member rate limits, as a patient client does, and fails on anything else. */
async function api(base: string, method: string, route: string, token: string, body?: unknown) {
  for (;;) {
    const res = await callApi(base, method, route, token, body);
    if (res.status === 429) {
      await sleep(1000);
      continue;
    }
    if (res.status >= 300)
      throw new Error(`${method} ${route}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}

type Asked = { text: string; shown: ServerMessage[]; prompt: string | null };

/** The message that ends a question: ANSWER_SAVED, or an ERROR refusing or failing it. */
function ending(client: ChatTestClient, from: number): Promise<ServerMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.socket.off('message', check);
      reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    // registered after the client's own listener, so the message is already in `messages`
    function check() {
      const end = client.messages.slice(from).find((m) => m.type === 'ANSWER_SAVED' || m.type === 'ERROR');
      if (!end) return;
      clearTimeout(timer);
      client.socket.off('message', check);
      resolve(end);
    }
    client.socket.on('message', check);
    check();
  });
}

async function ask(base: string, token: string, question: string, model: OpenAiTestServer | null) {
  const client = await ChatTestClient.open(base, token);
  try {
    for (;;) {
      const from = client.messages.length;
      const recordedAt = model?.requests.length ?? 0;
      client.send({ type: 'QUERY', query: question, isNewTopic: true });
      const end = await ending(client, from);
      if (end.type === 'ERROR' && end.code === 'RATE_LIMITED') {
        // 30 questions a minute per member: wait for the window, as a person would
        await sleep(5000);
        continue;
      }
      const shown = client.messages.slice(from);
      const complete = shown.find(
        (m): m is Extract<ServerMessage, { type: 'ANSWER_COMPLETE' }> => m.type === 'ANSWER_COMPLETE',
      );
      if (!complete) throw new Error(`"${question.slice(0, 60)}…" was not answered: ${JSON.stringify(end)}`);
      // the answer's own call streams; the suggestions and the question's rewrite are side calls that do not
      const sent = model?.requests.slice(recordedAt).find((request) => request.stream);
      return {
        text: complete.messageText,
        shown,
        prompt: sent ? sent.messages.map((message) => message.content).join('\n\n') : null,
      } satisfies Asked;
    }
  } finally {
    await client.close();
  }
}

async function search(base: string, token: string, q: string): Promise<SearchResponse> {
  return (await api(base, 'POST', '/_search', token, { q })) as unknown as SearchResponse;
}

/** Sets the org up as its admin would, and pushes every page with its ACL through the custom-api. */
async function pushPages(base: string, adminToken: string, set: EvalSet): Promise<number> {
  const { secret } = (await api(base, 'POST', '/api-keys', adminToken, { name: 'Handbook sync' })) as {
    secret: string;
  };
  const installed = (await api(base, 'PUT', '/app/install/custom-api', adminToken, {
    isOrg: true,
    options: { connection_name: 'Handbook', connection_id: 'handbook' },
  })) as { connection: { id: string } };
  const documents: CustomApiDocument[] = set.pages.map((page) => ({
    id: page.file,
    title: page.title,
    body: page.text,
    url: page.url,
    file_type: 'md',
    acl: page.readers === 'org' ? { org: true } : { users: page.readers },
  }));
  const started = performance.now();
  for (let i = 0; i < documents.length; i += CUSTOM_API_MAX_DOCUMENTS) {
    await api(base, 'POST', `/custom-api/${installed.connection.id}/documents`, secret, {
      documents: documents.slice(i, i + CUSTOM_API_MAX_DOCUMENTS),
    });
  }
  return (performance.now() - started) / 1000;
}

/** Everything one member was shown (and, with a model, what was sent to it for them), for the leak check. */
type Shown = { email: string; what: string; shown: unknown };

async function runMode(mode: Mode, set: EvalSet, model: OpenAiTestServer | null): Promise<boolean> {
  const inherited = envWithoutModels();
  // no demo workspace: pg_textsearch's statistics are per index, not per org, so its pages would weigh the terms
  const withoutDemo = { ...inherited, SCOUT_DEMO: '0' };
  const env = model ? { ...withoutDemo, OPENAI_COMPATIBLE_BASE_URL: model.url } : withoutDemo;
  const operator = `${OPERATOR}@${set.domain}`;
  const role: Role = {
    domain: set.domain,
    emails: set.acl.members,
    operator,
    secretKey: generateSecretKey().toString('hex'),
  };
  const child = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify(role)], { env });
  try {
    const [ready] = (await once(child, 'message')) as [Ready];
    const base = ready.url;
    const tokens: Record<string, string> = {};
    for (const [email, refresh_token] of Object.entries(ready.refreshTokens)) {
      const signedIn = await api(base, 'POST', '/auth/token-refresh', '', { refresh_token });
      tokens[email] = signedIn.id_token as string;
    }
    const pushSeconds = await pushPages(base, tokens[operator]!, set);
    console.log(
      `\n${set.name}, ${mode === 'model' ? 'test model (answers from the prompt)' : 'no model (extractive)'}: ` +
        `${set.pages.length} pages pushed in ${pushSeconds.toFixed(1)} s, load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const byUrl = new Map(set.pages.map((page) => [page.url, page.file]));
    const rankedFiles = (response: SearchResponse) => [
      ...new Set(response.hits.map((hit) => byUrl.get(hit.webview_link ?? '') ?? `?${hit.name}`)),
    ];

    const outcomes: Outcome[] = [];
    const shown: Shown[] = [];
    const started = performance.now();
    for (const question of set.questions) {
      const email = question.visible_to?.[0] ?? DEFAULT_MEMBER;
      const found = await search(base, tokens[email]!, question.question);
      const asked = await ask(base, tokens[email]!, question.question, model);
      shown.push({ email, what: `${question.id} search`, shown: found });
      shown.push({ email, what: `${question.id} answer`, shown: asked.shown });
      if (asked.prompt !== null) shown.push({ email, what: `${question.id} prompt`, shown: asked.prompt });
      outcomes.push({
        question,
        rank: firstRelevantRank(rankedFiles(found), question.answer_files),
        answerFacts: question.must_contain.map((fact) => containsFact(asked.text, fact)),
        factsInPrompt:
          asked.prompt === null ? null : question.must_contain.map((f) => factInPageText(asked.prompt!, f)),
      });
    }
    const askSeconds = (performance.now() - started) / 1000;

    // the README's leak test: each private question, and each private page's title, from every member who may not
    // see the page
    const privatePages = set.pages.filter((page) => page.readers !== 'org');
    let leakChecks = 0;
    for (const question of set.questions.filter((q) => q.visible_to)) {
      for (const email of set.acl.members.filter((member) => !question.visible_to!.includes(member))) {
        const asked = await ask(base, tokens[email]!, question.question, model);
        shown.push({
          email,
          what: `${question.id} search (leak test)`,
          shown: await search(base, tokens[email]!, question.question),
        });
        shown.push({ email, what: `${question.id} answer (leak test)`, shown: asked.shown });
        if (asked.prompt !== null)
          shown.push({ email, what: `${question.id} prompt (leak test)`, shown: asked.prompt });
        leakChecks += 1;
      }
    }
    for (const page of privatePages) {
      for (const email of set.acl.members.filter((member) => !mayRead(page, member))) {
        const q = page.title;
        shown.push({
          email,
          what: `search for "${q}" (leak test)`,
          shown: await search(base, tokens[email]!, q),
        });
        // the suggested titles only: `recent` is the member's own searches, the private titles they just typed
        const { titles } = (await api(base, 'POST', '/_autosuggest', tokens[email]!, {
          q,
        })) as AutosuggestResponse;
        shown.push({ email, what: `autosuggest for "${q}" (leak test)`, shown: titles });
        leakChecks += 1;
      }
    }

    console.log(formatTable(figuresByKind(outcomes)));
    const missed = outcomes.filter((o) => !(o.rank !== null && o.rank <= 5 && o.answerFacts.every(Boolean)));
    if (missed.length > 0)
      console.log('missed (rank of the first answer page; facts missing from the answer | prompt):');
    for (const o of missed) {
      const absent = (flags: boolean[] | null) =>
        flags === null ? '' : o.question.must_contain.filter((_, i) => !flags[i]).join(', ') || '-';
      console.log(
        `  ${o.question.id} ${o.question.kind.padEnd(10)} rank ${String(o.rank ?? '>10').padStart(3)}  ` +
          `answer lacks: ${absent(o.answerFacts)}${o.factsInPrompt ? `  | prompt lacks: ${absent(o.factsInPrompt)}` : ''}`,
      );
    }

    // every interaction of the run, not only the leak test's, is checked against every page its member may not read
    const traces = new Map<string, PrivateTrace[]>(
      set.acl.members.map((email) => {
        const readable = set.pages.filter((page) => mayRead(page, email)).map((page) => page.text);
        return [
          email,
          privatePages.filter((page) => !mayRead(page, email)).map((page) => privateTrace(page, readable)),
        ];
      }),
    );
    const leaks = shown.flatMap(({ email, what, shown: seen }) =>
      traces
        .get(email)!
        .flatMap((trace) =>
          leaksIn(seen, trace).map((found) => `${email}, ${what}: ${trace.file} — ${found}`),
        ),
    );
    // the check has teeth only if it finds each private page in what that page's own readers were shown
    const controls = privatePages.flatMap((page) => {
      const outsider = set.acl.members.find((email) => !mayRead(page, email));
      const trace = outsider ? traces.get(outsider)!.find((t) => t.file === page.file) : undefined;
      if (!trace) return [];
      return [
        shown.some(({ email, shown: seen }) => mayRead(page, email) && leaksIn(seen, trace).length > 0),
      ];
    });
    console.log(
      `leak test: ${leakChecks} private questions and title searches (and autosuggests) by members who may not ` +
        `see the page; all ` +
        `${shown.length} search results, answers and prompts of the run checked against the private pages their ` +
        `member may not read; the check finds ${controls.filter(Boolean).length} of ${controls.length} private ` +
        `pages in what their own readers were shown`,
    );
    if (leaks.length > 0) {
      console.error(
        `\n!!! LEAK: ${leaks.length} traces of private pages shown to members who may not see them:`,
      );
      for (const leak of leaks) console.error(`!!!   ${leak}`);
    } else {
      console.log('leak test: no leaks');
    }
    console.log(`(${set.questions.length} questions asked in ${askSeconds.toFixed(0)} s)`);
    const overall = figuresByKind(outcomes).at(-1)!.figures;
    console.log(summaryLine(`bench:answers ${set.name} ${mode}`, overall));
    return leaks.length === 0;
  } finally {
    child.disconnect();
    await once(child, 'exit');
  }
}

async function run(): Promise<void> {
  const dir = path.resolve(
    args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--only') ??
      path.join(repoRoot, '../shared/eval/workplace-dev'),
  );
  const set = readSet(dir);
  console.log(
    `bench:answers ${dir}: load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} (a shared machine)`,
  );
  let clean = true;
  if (ONLY !== 'model') clean = (await runMode('extractive', set, null)) && clean;
  if (ONLY !== 'extractive') {
    const model = await startOpenAiServer({
      respond: (request) =>
        request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT
          ? { text: 'TITLE: Handbook question\nRELATED:\n- more' }
          : { text: answerFromPrompt(request) },
    });
    try {
      clean = (await runMode('model', set, model)) && clean;
    } finally {
      await model.close();
    }
  }
  if (!clean) {
    console.error('\n!!! bench:answers: PRIVATE PAGES LEAKED (see above)');
    process.exitCode = 1;
  }
}

if (args[0] === '--serve') await serve(JSON.parse(args[1]!) as Role);
else await run();
