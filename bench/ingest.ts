// `npm run bench:ingest` (or `npm run bench -- ingest`): file uploads end to end, a mix of formats sent through
// POST /document_uploads in requests of 50, parsed in worker threads and indexed by the job worker. Prints files
// and chunks per second for the upload (parse + store) and for indexing, and the process's peak memory. Figures,
// never asserts. BENCH_UPLOADS sets the number of files (default 200).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { UploadListResponse, UploadResponse } from '../common/api/uploads';
import { UPLOAD_MAX_FILES } from '../common/limits';
import { runWorker } from '../server/jobs/worker';
import { createLogger } from '../server/logger';
import { makeDocx, makePdf, makePptx, makeXlsx } from '../server/parsing/testing';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer } from '../server/testing/server';

const FILES = Number(process.env.BENCH_UPLOADS ?? 200);
const WORDS = 'budget roadmap hiring launch review policy travel security onboarding quarterly'.split(' ');

function paragraph(seed: number, words: number): string {
  return Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ');
}

/** File i of the mix: PDF, DOCX, XLSX, PPTX, CSV, HTML and text in turn, each a few pages of words. */
async function sample(i: number): Promise<[name: string, bytes: Uint8Array]> {
  const text = (n: number) => paragraph(i + n, 120);
  switch (i % 7) {
    case 0:
      return [`f${i}.pdf`, await makePdf([[text(0), text(1)], [text(2)]])];
    case 1:
      return [`f${i}.docx`, await makeDocx()];
    case 2:
      return [
        `f${i}.xlsx`,
        makeXlsx([{ name: 'S', rows: WORDS.map((word, r) => [word, r, text(r).slice(0, 80)]) }]),
      ];
    case 3:
      return [`f${i}.pptx`, makePptx([0, 1, 2].map((n) => ({ title: `Slide ${n}`, bullets: [text(n)] })))];
    case 4:
      return [
        `f${i}.csv`,
        new TextEncoder().encode(WORDS.map((word, r) => `${word},${r},${text(r)}`).join('\n')),
      ];
    case 5:
      return [`f${i}.html`, new TextEncoder().encode(`<h1>Page ${i}</h1><p>${text(0)}</p><p>${text(1)}</p>`)];
    default:
      return [`f${i}.txt`, new TextEncoder().encode(`${text(0)}\n\n${text(1)}\n\n${text(2)}`)];
  }
}

export async function benchIngest(): Promise<void> {
  const server = await createTestServer();
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await createOrg(server.store.db, { domain: 'bench-ingest.test' });
  const user = await createUser(server.store.db, org, { email: 'bench@bench-ingest.test' });
  const headers = { authorization: `Bearer ${(await loginTokensFor(server.ctx, user)).id_token}` };
  const files = await Promise.all(Array.from({ length: FILES }, (_, i) => sample(i)));
  const bytes = files.reduce((total, [, content]) => total + content.length, 0);

  // Upload first with no worker running, so the two phases are timed apart.
  const uploadStarted = performance.now();
  for (let at = 0; at < files.length; at += UPLOAD_MAX_FILES) {
    const form = new FormData();
    for (const [name, content] of files.slice(at, at + UPLOAD_MAX_FILES)) {
      form.append('file', new Blob([new Uint8Array(content)]), name);
    }
    const response = await fetch(`${base}/api/v1/document_uploads`, { method: 'POST', body: form, headers });
    const answer = (await response.json()) as UploadResponse;
    if (!response.ok || answer.failed.length > 0) throw new Error(`upload failed: ${JSON.stringify(answer)}`);
  }
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;

  const indexStarted = performance.now();
  const worker = runWorker(server.store, createLogger('silent'), { idleMs: 10 });
  let chunks = 0;
  for (;;) {
    const response = await fetch(`${base}/api/v1/document_uploads`, { headers });
    const { documents } = (await response.json()) as UploadListResponse;
    if (documents.every((doc) => doc.total_chunks >= 0)) {
      chunks = documents.reduce((total, doc) => total + doc.total_chunks, 0);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  await worker.stop();
  await server.close();

  const perSecond = (count: number, seconds: number) => (count / seconds).toFixed(1);
  console.log(
    `ingest uploads (${FILES} files of 7 formats, ${(bytes / 1024 / 1024).toFixed(1)} MB, embedded store): ` +
      `upload + parse ${perSecond(FILES, uploadSeconds)} files/s; ` +
      `index ${perSecond(FILES, indexSeconds)} files/s, ${perSecond(chunks, indexSeconds)} chunks/s ` +
      `(${chunks} chunks); peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
}

const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) await benchIngest();
