// File uploads over real HTTP (multipart from fetch) on a real store, with the real job worker indexing them:
// every accepted type, the zip variant, the limits, the spec's refusals, visibility against search, and delete.
import { and, asc, eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../../common/api/search';
import {
  uploadMessages,
  type UploadedDocument,
  type UploadListResponse,
  type UploadResponse,
} from '../../../common/api/uploads';
import { files as fileStrings, validation } from '../../../common/strings';
import { orgs, uploadBlobs, uploads, type User } from '../../db/schema';
import { registerErrorHandling } from '../../http/error-handler';
import { runWorker, type RunningWorker } from '../../jobs/worker';
import { createLogger } from '../../logger';
import { makeDocx, makeNumbers, makeOpenDocument, makePdf, makePptx, makeXlsx } from '../../parsing/testing';
import { registerAccessPolicy } from '../../policies/access';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';
import { uploadRoutes } from './routes';

let server: TestServer;
let base: string;
let worker: RunningWorker;
let ann: User; // admin
let bob: User;
let cat: User;
let olga: User; // another org
const tokens = new Map<User, string>();

type FileSpec = [name: string, bytes: Uint8Array | string, type?: string];
type Answer<T> = { status: number; body: T & { code?: string; message?: string } };

function form(files: FileSpec[], fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  for (const [name, bytes, type] of files) {
    const content = new Uint8Array(typeof bytes === 'string' ? strToU8(bytes) : bytes);
    data.append('file', new Blob([content], type ? { type } : {}), name);
  }
  return data;
}

async function call<T>(
  user: User | null,
  path: string,
  init: { method?: string; body?: FormData | string; headers?: Record<string, string> } = {},
  at = base,
): Promise<Answer<T>> {
  const response = await fetch(`${at}/api/v1/${path}`, {
    method: init.method ?? 'GET',
    body: init.body,
    headers: { ...(user ? { authorization: `Bearer ${tokens.get(user)}` } : {}), ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer<T>['body'] };
}

const upload = (user: User, files: FileSpec[], fields?: Record<string, string>, path = 'document_uploads') =>
  call<UploadResponse>(user, path, { method: 'POST', body: form(files, fields) });

const list = async (user: User) => (await call<UploadListResponse>(user, 'document_uploads')).body.documents;

async function search(user: User, q: string): Promise<SearchResponse['hits']> {
  const { status, body } = await call<SearchResponse>(user, '_search', {
    method: 'POST',
    body: JSON.stringify({ q }),
    headers: { 'content-type': 'application/json' },
  });
  expect(status).toBe(200);
  return body.hits;
}

/** Polls the list until every id is indexed (the worker runs beside the test). */
async function indexed(user: User, ids: string[]): Promise<UploadedDocument[]> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const documents = (await list(user)).filter((doc) => ids.includes(doc.id));
    if (documents.length === ids.length && documents.every((doc) => doc.total_chunks !== -1))
      return documents;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`uploads ${ids.join(', ')} were not indexed in time`);
}

async function uploadCount(): Promise<number> {
  return (await server.store.db.select({ id: uploads.id }).from(uploads)).length;
}

beforeAll(async () => {
  server = await createTestServer();
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { db } = server.store;
  const acme = await createOrg(db, { domain: 'acme.test' });
  const other = await createOrg(db, { domain: 'other.test' });
  ann = await createUser(db, acme, { email: 'ann@acme.test', admin: true, firstName: 'Ann' });
  bob = await createUser(db, acme, { email: 'bob@acme.test', firstName: 'Bob', lastName: 'Baker' });
  cat = await createUser(db, acme, { email: 'cat@acme.test' });
  olga = await createUser(db, other, { email: 'olga@other.test' });
  for (const user of [ann, bob, cat, olga]) {
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
  }
  worker = runWorker(server.store, createLogger('silent'), { idleMs: 50 });
});

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

describe('POST /document_uploads', () => {
  it(
    'reads every accepted type, answers per file with total_chunks -1, then indexes each',
    { timeout: 120_000 },
    async () => {
      const samples: FileSpec[] = [
        ['report.pdf', await makePdf([['The aardvarkpdf quarterly report']], 'Quarterly Report')],
        ['handbook.docx', await makeDocx()],
        [
          'budget.xlsx',
          makeXlsx([
            {
              name: 'Budget',
              rows: [
                ['Item', 'Amount'],
                ['bisonxlsx', 10],
              ],
            },
          ]),
        ],
        ['deck.pptx', makePptx([{ title: 'Roadmap', bullets: ['The camelpptx launch'] }])],
        [
          'policy.odt',
          makeOpenDocument(
            'application/vnd.oasis.opendocument.text',
            'Policy',
            '<office:text><text:p>The dingoodt travel policy.</text:p></office:text>',
          ),
        ],
        [
          'costs.ods',
          makeOpenDocument(
            'application/vnd.oasis.opendocument.spreadsheet',
            'Costs',
            '<office:spreadsheet><table:table table:name="Costs"><table:table-row>' +
              '<table:table-cell office:value-type="string"><text:p>emuods</text:p></table:table-cell>' +
              '</table:table-row></table:table></office:spreadsheet>',
          ),
        ],
        [
          'plan.numbers',
          makeNumbers('Plan', 'Tasks', [
            ['Task', 'Owner'],
            ['ferretnumbers', 'Bob'],
          ]),
        ],
        ['menu.rtf', String.raw`{\rtf1\ansi\deff0 The gazellertf menu\par}`],
        ['people.csv', 'name,animal\nBob,hyenacsv\n'],
        ['people.tsv', 'name\tanimal\nBob\tibextsv\n'],
        ['page.html', '<html><head><title>Page</title></head><body><p>The jackalhtml page</p></body></html>'],
        ['notes.txt', 'The koalatxt notes.'],
        ['readme.md', '# Readme\n\nThe lemurmd readme.'],
      ];
      const { status, body } = await upload(bob, samples);
      expect(status).toBe(200);
      expect(body.failed).toEqual([]);
      expect(body.documents.map((doc) => doc.name)).toEqual(samples.map(([name]) => name));
      expect(body.documents.every((doc) => doc.total_chunks === -1)).toBe(true);
      expect(body.id).toBe(body.documents[0]!.id);
      expect(body.name).toBe('report.pdf');
      expect(body.documents[0]).toMatchObject({
        title: 'Quarterly Report',
        visibility: 'PRIVATE',
        creator: { name: 'Bob Baker', email: 'bob@acme.test' },
      });

      const done = await indexed(
        bob,
        body.documents.map((doc) => doc.id),
      );
      expect(done.every((doc) => doc.total_chunks > 0)).toBe(true);

      const words = [
        'aardvarkpdf',
        'laptop',
        'bisonxlsx',
        'camelpptx',
        'dingoodt',
        'emuods',
        'ferretnumbers',
      ];
      words.push('gazellertf', 'hyenacsv', 'ibextsv', 'jackalhtml', 'koalatxt', 'lemurmd');
      for (const [index, word] of words.entries()) {
        const hits = await search(bob, word);
        expect(
          hits.map((hit) => hit.source),
          word,
        ).toContain('files');
        const title = done.find((doc) => doc.name === samples[index]![0])!.title;
        expect(
          hits.map((hit) => hit.name),
          word,
        ).toContain(title);
      }
    },
  );

  it('stores the bytes exactly as sent', async () => {
    const bytes = await makePdf([['Stored bytes check']]);
    const { body } = await upload(bob, [['bytes.pdf', bytes]]);
    const pieces = await server.store.db
      .select({ data: uploadBlobs.data })
      .from(uploadBlobs)
      .where(eq(uploadBlobs.uploadId, body.id))
      .orderBy(asc(uploadBlobs.seq));
    expect(Buffer.concat(pieces.map((piece) => piece.data)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("refuses a file with no text with the spec's 400 and stores nothing", async () => {
    const before = await uploadCount();
    for (const file of [
      ['blank.txt', '   \n\n  '],
      ['blank.pdf', await makePdf([[]])],
    ] satisfies FileSpec[]) {
      const { status, body } = await upload(bob, [file]);
      expect(status).toBe(400);
      expect(body).toEqual({ code: 'BAD_REQUEST', message: fileStrings.NO_CONTENT_PARSED });
    }
    expect(await uploadCount()).toBe(before);
  });

  it('refuses a type Scout does not read, by its extension', async () => {
    const { status, body } = await upload(bob, [['tool.exe', 'MZ binary']]);
    expect(status).toBe(415);
    expect(body).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: validation.unsupportedFileTypes(['.exe']),
    });
  });

  it('stores the good files of a mixed request and names the refused ones', async () => {
    const { status, body } = await upload(bob, [
      ['good.txt', 'A perfectly good note about narwhals.'],
      ['empty.txt', ''],
      ['photo.png', 'not really a png'],
    ]);
    expect(status).toBe(200);
    expect(body.documents.map((doc) => doc.name)).toEqual(['good.txt']);
    expect(body.failed).toEqual([
      { name: 'empty.txt', code: 'BAD_REQUEST', message: fileStrings.NO_CONTENT_PARSED },
      {
        name: 'photo.png',
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: validation.unsupportedFileTypes(['.png']),
      },
    ]);
  });

  it('refuses more than 50 files at once and stores none of them', async () => {
    const before = await uploadCount();
    const many: FileSpec[] = Array.from({ length: 51 }, (_, i) => [`n${i}.txt`, `note ${i}`]);
    const { status, body } = await upload(bob, many);
    expect(status).toBe(400);
    expect(body.message).toBe(validation.tooManyFiles(50));
    expect(await uploadCount()).toBe(before);
  });

  it('refuses bad input with 400 and a message, and callers without a session with 401', async () => {
    const json = await call(bob, 'document_uploads', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('BAD_REQUEST');
    const noFile = await call(bob, 'document_uploads', {
      method: 'POST',
      body: form([], { visibility: 'ORG' }),
    });
    expect(noFile.status).toBe(400);
    const badVisibility = await upload(bob, [['a.txt', 'hello']], { visibility: 'EVERYONE' });
    expect(badVisibility.status).toBe(400);
    expect(badVisibility.body.code).toBe('BAD_REQUEST');
    expect((await call(null, 'document_uploads')).status).toBe(401);
    expect(
      (await call(null, 'document_uploads', { method: 'POST', body: form([['a.txt', 'x']]) })).status,
    ).toBe(401);
  });
});

describe('POST /document_uploads/zip', () => {
  it('uploads each document of the zip, skipping what Scout does not read', async () => {
    const zip = zipSync({
      'docs/otter.txt': strToU8('The otterzip field notes.'),
      'docs/pandas.csv': strToU8('animal\npandazip\n'),
      'docs/picture.png': strToU8('not an image'),
      '__MACOSX/docs/._otter.txt': strToU8('resource fork'),
    });
    const { status, body } = await upload(bob, [['export.zip', zip]], {}, 'document_uploads/zip');
    expect(status).toBe(200);
    expect(body.documents.map((doc) => doc.name).sort()).toEqual(['docs/otter.txt', 'docs/pandas.csv']);
    expect(body.failed.map((failure) => failure.name)).toEqual(['docs/picture.png']);
    await indexed(
      bob,
      body.documents.map((doc) => doc.id),
    );
    expect((await search(bob, 'otterzip')).map((hit) => hit.source)).toContain('files');
    expect((await search(bob, 'pandazip')).map((hit) => hit.source)).toContain('files');
  });

  it('takes a single zip file only', async () => {
    const zip = zipSync({ 'a.txt': strToU8('alpha') });
    const two = await upload(
      bob,
      [
        ['a.zip', zip],
        ['b.zip', zip],
      ],
      {},
      'document_uploads/zip',
    );
    expect(two.status).toBe(400);
    expect(two.body.message).toBe(validation.tooManyFiles(1));
    const notZip = await upload(bob, [['a.txt', 'alpha']], {}, 'document_uploads/zip');
    expect(notZip.status).toBe(400);
    const broken = await upload(
      bob,
      [['broken.zip', 'PK\u0003\u0004 not really']],
      {},
      'document_uploads/zip',
    );
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe(fileStrings.NO_CONTENT_PARSED);
  });
});

describe('visibility and delete', () => {
  it('keeps a private file to its uploader, in the list, in search and for delete', async () => {
    const { body } = await upload(bob, [['secret.txt', 'The quokkaprivate merger plan.']]);
    await indexed(bob, [body.id]);
    expect((await search(bob, 'quokkaprivate')).map((hit) => hit.name)).toContain('secret');
    expect(await search(cat, 'quokkaprivate')).toEqual([]);
    expect(await search(ann, 'quokkaprivate')).toEqual([]);
    expect(await search(olga, 'quokkaprivate')).toEqual([]);
    expect((await list(cat)).map((doc) => doc.id)).not.toContain(body.id);
    expect((await list(ann)).map((doc) => doc.id)).not.toContain(body.id);
    expect((await call(cat, `document_uploads/${body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(ann, `document_uploads/${body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(olga, `document_uploads/${body.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lets an admin publish a file to the whole workspace, and only an admin', async () => {
    const member = await upload(bob, [['all.txt', 'for everyone']], { visibility: 'ORG' });
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('ADMIN_REQUIRED');

    const { status, body } = await upload(ann, [['holidays.txt', 'The wombatorg holiday calendar.']], {
      visibility: 'ORG',
    });
    expect(status).toBe(200);
    expect(body.visibility).toBe('ORG');
    await indexed(ann, [body.id]);
    expect((await search(cat, 'wombatorg')).map((hit) => hit.name)).toContain('holidays');
    expect(await search(olga, 'wombatorg')).toEqual([]);
    expect((await list(cat)).map((doc) => doc.id)).toContain(body.id);
    // a member sees it but may not delete it
    expect((await call(cat, `document_uploads/${body.id}`, { method: 'DELETE' })).status).toBe(403);
  });

  it('deletes a file from the list, the index and the blob store', async () => {
    const { body } = await upload(bob, [['gone.txt', 'The yakdelete memo.']]);
    await indexed(bob, [body.id]);
    expect(await search(bob, 'yakdelete')).not.toEqual([]);

    expect((await call(bob, `document_uploads/${body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await search(bob, 'yakdelete')).toEqual([]);
    expect((await list(bob)).map((doc) => doc.id)).not.toContain(body.id);
    const blobs = await server.store.db
      .select({ seq: uploadBlobs.seq })
      .from(uploadBlobs)
      .where(and(eq(uploadBlobs.uploadId, body.id)));
    expect(blobs).toEqual([]);
    expect((await call(bob, `document_uploads/${body.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(bob, 'document_uploads/not-an-id', { method: 'DELETE' })).status).toBe(400);
  });
});

describe('the size limit', () => {
  let small: FastifyInstance;
  let smallBase: string;

  beforeAll(async () => {
    // The same routes on the same store with a 1 KB limit, so the refusal is proven without a 1 GB body.
    small = Fastify().withTypeProvider<ZodTypeProvider>();
    small.setValidatorCompiler(validatorCompiler);
    small.setSerializerCompiler(serializerCompiler);
    small.decorate('ctx', server.ctx);
    small.decorateRequest('viewer', null);
    registerErrorHandling(small);
    registerAccessPolicy(small);
    await small.register(uploadRoutes, { prefix: '/api/v1', maxFileBytes: 1024 });
    smallBase = await small.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await small?.close();
  });

  it("refuses a file over the limit with the spec's message, keeping the files within it", async () => {
    const big = `big ${'x'.repeat(2048)}`;
    const alone = await call<UploadResponse>(
      bob,
      'document_uploads',
      { method: 'POST', body: form([['big.txt', big]]) },
      smallBase,
    );
    expect(alone.status).toBe(413);
    expect(alone.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: fileStrings.fileTooLarge('big.txt') });

    const mixed = await call<UploadResponse>(
      bob,
      'document_uploads',
      {
        method: 'POST',
        body: form([
          ['big.txt', big],
          ['small.txt', 'a small note'],
        ]),
      },
      smallBase,
    );
    expect(mixed.status).toBe(200);
    expect(mixed.body.documents.map((doc) => doc.name)).toEqual(['small.txt']);
    expect(mixed.body.failed).toEqual([
      { name: 'big.txt', code: 'PAYLOAD_TOO_LARGE', message: fileStrings.fileTooLarge('big.txt') },
    ]);
  });
});

describe('per-member budgets', () => {
  let limited: FastifyInstance;
  let limitedBase: string;
  let dora: User;
  let evan: User;

  beforeAll(async () => {
    // The same routes on the same store with tiny budgets, so the refusals are proven without gigabytes.
    limited = Fastify().withTypeProvider<ZodTypeProvider>();
    limited.setValidatorCompiler(validatorCompiler);
    limited.setSerializerCompiler(serializerCompiler);
    limited.decorate('ctx', server.ctx);
    limited.decorateRequest('viewer', null);
    registerErrorHandling(limited);
    registerAccessPolicy(limited);
    await limited.register(uploadRoutes, { prefix: '/api/v1', requestsPerMinute: 3, bytesPerDay: 100 });
    limitedBase = await limited.listen({ port: 0, host: '127.0.0.1' });
    const [acme] = await server.store.db.select().from(orgs).where(eq(orgs.domain, 'acme.test'));
    dora = await createUser(server.store.db, acme!, { email: 'dora@acme.test' });
    evan = await createUser(server.store.db, acme!, { email: 'evan@acme.test' });
    for (const user of [dora, evan]) tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
  });

  afterAll(async () => {
    await limited?.close();
  });

  const send = (user: User, files: FileSpec[]) =>
    call<UploadResponse>(user, 'document_uploads', { method: 'POST', body: form(files) }, limitedBase);

  it('answers 429 past the uploads a member may send a minute, storing nothing', async () => {
    for (let i = 0; i < 3; i++) expect((await send(dora, [[`n${i}.txt`, `note ${i}`]])).status).toBe(200);
    const before = await uploadCount();
    const response = await fetch(`${limitedBase}/api/v1/document_uploads`, {
      method: 'POST',
      body: form([['n3.txt', 'note 3']]),
      headers: { authorization: `Bearer ${tokens.get(dora)}` },
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({ code: 'RATE_LIMITED', message: uploadMessages.TOO_MANY_UPLOADS });
    expect(await uploadCount()).toBe(before);
    // another member is counted apart
    expect((await send(evan, [['e.txt', 'evan note']])).status).toBe(200);
  });

  it('refuses a file past the bytes a member may upload a day with 413, keeping the files within it', async () => {
    const sixty = 'x '.repeat(30);
    const mixed = await send(evan, [
      ['first.txt', sixty],
      ['second.txt', sixty],
    ]);
    expect(mixed.status).toBe(200);
    expect(mixed.body.documents.map((doc) => doc.name)).toEqual(['first.txt']);
    const refusal = {
      code: 'PAYLOAD_TOO_LARGE',
      message: uploadMessages.dailyLimitReached('second.txt', 100),
    };
    expect(mixed.body.failed).toEqual([{ name: 'second.txt', ...refusal }]);
    // what is stored counts on the next request: nothing is left of the day's budget
    const before = await uploadCount();
    const alone = await send(evan, [['second.txt', sixty]]);
    expect(alone).toEqual({ status: 413, body: refusal });
    expect(await uploadCount()).toBe(before);
  });
});

describe('file names', () => {
  it('keeps no bidi controls or control characters, and keeps HTML as plain text', async () => {
    const spoofed = 'invoice\u202Efdp.exe\u2066\u0007.txt';
    const html = '<img src=x onerror=alert(1)>.txt';
    const { status, body } = await upload(cat, [
      [spoofed, 'The spoofed name'],
      [html, 'The html name'],
    ]);
    expect(status).toBe(200);
    expect(body.documents.map((doc) => doc.name)).toEqual(['invoicefdp.exe.txt', html]);
    expect(body.documents[1]!.title).toBe('<img src=x onerror=alert(1)>');

    const zip = zipSync({ 'docs/\u202Etxt.exe\u0000.md': strToU8('The zipped name') });
    const zipped = await upload(cat, [['names.zip', zip]], {}, 'document_uploads/zip');
    expect(zipped.status).toBe(200);
    expect(zipped.body.documents.map((doc) => doc.name)).toEqual(['docs/txt.exe.md']);
    const stored = await server.store.db.select({ fileName: uploads.fileName }).from(uploads);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(stored.some((row) => /[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/.test(row.fileName))).toBe(false);
  });
});
