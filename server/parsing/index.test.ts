import net from 'node:net';
import { deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { files } from '../../common/strings';
import {
  FileTooLargeError,
  NoContentError,
  PAGE_BREAK,
  ParseTimeoutError,
  UnsupportedFileError,
  parseFile,
  type ParsedFile,
} from './index';
import { makeDocx, makeNumbers, makeOpenDocument, makePdf, makePptx, makeXlsx } from './testing';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Asserts that `parts` occur in `text` in this order. */
function expectInOrder(text: string, parts: string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    expect(at, `"${part}" after offset ${from} in:\n${text}`).toBeGreaterThanOrEqual(0);
    from = at + part.length;
  }
}

async function expectNoContent(promise: Promise<ParsedFile>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(NoContentError);
  expect((error as Error).message).toBe('No content was parsed from the file.');
  expect((error as Error).message).toBe(files.NO_CONTENT_PARSED);
}

const XLSX_SHEETS = [
  {
    name: 'Budget',
    rows: [
      ['Item', 'Amount', 'Owner', 'Due', 'Paid'],
      ['Rent', 1200, 'Dana', new Date(Date.UTC(2027, 0, 31)), true],
      ['Travel', 85.5, 'Lee', new Date(Date.UTC(2027, 1, 14, 9, 30)), false],
    ],
  },
  {
    name: 'Staff',
    rows: [
      ['Name', 'Team'],
      ['Ada', 'Search'],
    ],
  },
];

const ODT_BODY =
  '<office:text><text:h text:outline-level="1">Travel</text:h><text:p>Book economy class.</text:p>' +
  '<text:h text:outline-level="2">Limits</text:h>' +
  '<table:table table:name="Limits"><table:table-row><table:table-cell><text:p>City</text:p></table:table-cell>' +
  '<table:table-cell><text:p>Nightly limit</text:p></table:table-cell></table:table-row>' +
  '<table:table-row><table:table-cell><text:p>Paris</text:p></table:table-cell>' +
  '<table:table-cell><text:p>€200</text:p></table:table-cell></table:table-row></table:table></office:text>';

const RTF =
  String.raw`{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Helvetica;}{\f1\fnil\fcharset204 Arial;}}` +
  String.raw`{\colortbl;\red255\green0\blue0;}{\stylesheet{\s1 Heading 1;}}{\info{\title Caf\'e9 menu}{\author Chef}}` +
  String.raw`{\*\generator Hand 1.0;}\pard\b Caf\'e9 Men\u252?\b0\par ` +
  String.raw`Price: 5\u8364? or 4\'a3\par {\f1 \'cf\'f0\'e8\'e2\'e5\'f2}\par ` +
  String.raw`Emoji \u-10179?\u-8704? done\par {\pict\pngblip 89504e47}` +
  String.raw`{\field{\*\fldinst HYPERLINK "https://x.test"}{\fldrslt visit us}}\par \{braces\}}`;

describe('parseFile', () => {
  it('reads a PDF page by page, pages separated by a page break, titled from its metadata', async () => {
    const bytes = await makePdf(
      [
        ['Quarterly report', 'Revenue grew 12% in the third quarter.'],
        ['Outlook', 'We plan to hire two engineers.'],
      ],
      'Q3 Report',
    );
    const parsed = await parseFile({ fileName: 'q3.pdf', bytes });
    expect(parsed).toMatchObject({ title: 'Q3 Report', fileType: 'pdf', pages: 2, warnings: [] });
    expectInOrder(parsed.text, [
      'Quarterly report',
      'Revenue grew 12% in the third quarter.',
      PAGE_BREAK,
      'Outlook',
      'We plan to hire two engineers.',
    ]);
    // PDF.js detaches the buffer it reads; the caller's bytes must survive
    expect(bytes.byteLength).toBeGreaterThan(0);
  });

  it('breaks PDF lines at baseline changes and spaces out strings drawn apart on one line', async () => {
    const bytes = await makePdf([[['Plan', 'Monthly cost'], ['Basic', '$10'], 'Prices include tax.']]);
    const parsed = await parseFile({ fileName: 'prices.pdf', bytes });
    expect(parsed.text).toBe('Plan Monthly cost\nBasic $10\nPrices include tax.');
  });

  it('titles a PDF without a metadata title by its first line', async () => {
    const parsed = await parseFile({
      fileName: 'memo.pdf',
      bytes: await makePdf([['Memo to staff', 'Hello.']]),
    });
    expect(parsed.title).toBe('Memo to staff');
  });

  it('titles a PDF whose metadata title is a placeholder by its first heading, else by its file name', async () => {
    const headed = await makePdf(
      [
        [
          'Acme Corp - confidential',
          { text: 'Parental leave policy', size: 22 },
          'Every parent gets 16 weeks.',
        ],
      ],
      'about:blank',
    );
    expect((await parseFile({ fileName: 'leave.pdf', bytes: headed })).title).toBe('Parental leave policy');

    const plain = await makePdf([['Every parent gets 16 weeks of paid leave, and more.']], 'about:blank');
    expect((await parseFile({ fileName: 'leave-2027.pdf', bytes: plain })).title).toBe('leave-2027');

    const printed = await makePdf(
      [['Every parent gets 16 weeks of paid leave.']],
      'https://intranet.test/leave',
    );
    expect((await parseFile({ fileName: 'leave.pdf', bytes: printed })).title).toBe('leave');
  });

  it('titles a document without a title of its own by the level-one heading it opens with', async () => {
    const parsed = await parseFile({
      fileName: 'readme.md',
      bytes: utf8('# Onboarding guide\n\nWelcome aboard.'),
    });
    expect(parsed.title).toBe('Onboarding guide');
    const sheet = await parseFile({ fileName: 'budget.xlsx', bytes: makeXlsx(XLSX_SHEETS) });
    expect(sheet.title).toBe('budget');
  });

  it('refuses a PDF with no text as empty', async () => {
    await expectNoContent(parseFile({ fileName: 'blank.pdf', bytes: await makePdf([[]]) }));
  });

  it('reads a PDF by its content whatever its name says', async () => {
    const parsed = await parseFile({ fileName: 'misnamed.docx', bytes: await makePdf([['Actually a PDF']]) });
    expect(parsed.fileType).toBe('pdf');
    expect(parsed.text).toBe('Actually a PDF');
  });

  it('reads a Word document with its headings, list and table, titled from its properties', async () => {
    const parsed = await parseFile({ fileName: 'handbook.docx', bytes: await makeDocx() });
    expect(parsed).toMatchObject({ title: 'Employee Handbook 2027', fileType: 'document', warnings: [] });
    expect(parsed.text).toBe(
      [
        '# Welcome',
        '',
        'Everyone gets a laptop on day one.',
        '',
        '## Benefits',
        '',
        '- Health insurance',
        '- Paid parental leave',
        '',
        'Plan\tMonthly cost',
        'Basic\t$10',
        '',
        '## Travel',
        '',
        'Book trains for trips under four hours.',
      ].join('\n'),
    );
  });

  it('maps a Google Docs export to the Word reader', async () => {
    const parsed = await parseFile({
      fileName: 'Handbook',
      mimeType: 'application/vnd.google-apps.document',
      bytes: await makeDocx(),
    });
    expect(parsed.fileType).toBe('document');
    expect(parsed.text).toContain('## Benefits');
  });

  it('reads a Google Sheets CSV export as rows', async () => {
    const parsed = await parseFile({
      fileName: 'Budget',
      mimeType: 'application/vnd.google-apps.spreadsheet',
      bytes: utf8('Item,Amount\nRent,1200\n'),
    });
    expect(parsed).toMatchObject({ title: 'Budget', fileType: 'spreadsheet' });
    expect(parsed.text).toContain('Item: Rent\nAmount: 1200');
  });

  it('reads a workbook sheet by sheet, rows labelled with their column names, dates and booleans as such', async () => {
    const parsed = await parseFile({ fileName: 'budget.xlsx', bytes: makeXlsx(XLSX_SHEETS) });
    expect(parsed).toMatchObject({ title: 'budget', fileType: 'spreadsheet' });
    expectInOrder(parsed.text, [
      '## Sheet: Budget',
      'Item: Rent\nAmount: 1200\nOwner: Dana\nDue: 2027-01-31\nPaid: TRUE',
      'Item: Travel\nAmount: 85.5\nOwner: Lee\nDue: 2027-02-14 09:30\nPaid: FALSE',
      '## Sheet: Staff',
      'Name: Ada\nTeam: Search',
    ]);
  });

  it('reads a presentation slide by slide under "## Slide N" headings', async () => {
    const bytes = makePptx([
      { title: 'Roadmap 2027', bullets: ['Ship search', 'Ship answers'] },
      { title: 'Hiring', bullets: ['Two engineers in Lisbon'] },
    ]);
    const parsed = await parseFile({ fileName: 'deck.pptx', bytes });
    expect(parsed).toMatchObject({ title: 'Roadmap 2027', fileType: 'presentation', pages: 2 });
    expectInOrder(parsed.text, [
      '## Slide 1',
      '### Roadmap 2027',
      'Ship search',
      'Ship answers',
      '## Slide 2',
      '### Hiring',
      'Two engineers in Lisbon',
    ]);
  });

  it('reads OpenDocument text with its headings and tables, titled from its metadata', async () => {
    const bytes = makeOpenDocument('application/vnd.oasis.opendocument.text', 'Travel Policy', ODT_BODY);
    const parsed = await parseFile({ fileName: 'policy.odt', bytes });
    expect(parsed).toMatchObject({ title: 'Travel Policy', fileType: 'document' });
    expect(parsed.text).toBe(
      '# Travel\n\nBook economy class.\n\n## Limits\n\nCity\tNightly limit\nParis\t€200',
    );
  });

  it('reads an OpenDocument spreadsheet under a sheet heading', async () => {
    const cellOf = (text: string) =>
      `<table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell>`;
    const body =
      '<office:spreadsheet><table:table table:name="Costs">' +
      `<table:table-row>${cellOf('Item')}${cellOf('Amount')}</table:table-row>` +
      `<table:table-row>${cellOf('Rent')}<table:table-cell office:value-type="float" office:value="1200">` +
      '<text:p>1200</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>';
    const bytes = makeOpenDocument('application/vnd.oasis.opendocument.spreadsheet', 'Costs', body);
    const parsed = await parseFile({ fileName: 'costs.ods', bytes });
    expect(parsed.fileType).toBe('spreadsheet');
    expectInOrder(parsed.text, ['## Sheet: Costs', 'Item: Rent\nAmount: 1200']);
  });

  it('reads the tables of an Apple Numbers file', async () => {
    const bytes = makeNumbers('Budget', 'Expenses', [
      ['Item', 'Amount'],
      ['Rent', [12005n, -1]],
      ['Travel', [85n, 0]],
    ]);
    const parsed = await parseFile({ fileName: 'budget.numbers', bytes });
    expect(parsed).toMatchObject({ title: 'budget', fileType: 'spreadsheet', warnings: [] });
    expectInOrder(parsed.text, [
      '## Sheet: Budget',
      '### Expenses',
      'Item: Rent\nAmount: 1200.5',
      'Item: Travel\nAmount: 85',
    ]);
  });

  it('reads RTF: code pages, Unicode escapes and their fallbacks, skipping tables, pictures and field codes', async () => {
    const parsed = await parseFile({ fileName: 'menu.rtf', bytes: utf8(RTF) });
    expect(parsed).toMatchObject({ title: 'Café menu', fileType: 'document' });
    expect(parsed.text).toBe(
      ['Café Menü', 'Price: 5€ or 4£', 'Привет', 'Emoji 😀 done', 'visit us', '{braces}'].join('\n'),
    );
  });

  it('reads CSV with quoted commas, quotes and line breaks, one labelled block per row', async () => {
    const csv = 'Name,Notes,City\r\n"Smith, Ann","Said ""hi""\nthen left",Lisbon\r\nBo,,"Porto"\r\n';
    const parsed = await parseFile({ fileName: 'people.csv', bytes: utf8(csv) });
    expect(parsed.fileType).toBe('spreadsheet');
    expect(parsed.text).toBe(
      'Name\tNotes\tCity\n\nName: Smith, Ann\nNotes: Said "hi" then left\nCity: Lisbon\n\nName: Bo\nCity: Porto',
    );
  });

  it('reads TSV', async () => {
    const parsed = await parseFile({
      fileName: 'staff.tsv',
      bytes: utf8('Name\tRole\nAda\tEngineer, search\n'),
    });
    expect(parsed.text).toBe('Name\tRole\n\nName: Ada\nRole: Engineer, search');
  });

  it('reads HTML without its navigation, scripts or footer', async () => {
    const html =
      '<html><head><title>On-call guide</title><script>var secret = 1;</script></head><body>' +
      '<nav><a href="/">Home</a></nav><main><h1>On call</h1><p>Page the <em>primary</em> first.</p></main>' +
      '<footer>© 2027</footer></body></html>';
    const parsed = await parseFile({ fileName: 'oncall.html', bytes: utf8(html) });
    expect(parsed).toMatchObject({ title: 'On-call guide', fileType: 'document' });
    expect(parsed.text).toBe('# On call\n\nPage the primary first.');
  });

  it('reads UTF-8 text with a byte-order mark, titled by its file name', async () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('Zoë’s notes\r\nline two')]);
    const parsed = await parseFile({ fileName: 'notes.txt', bytes });
    expect(parsed).toEqual({
      title: 'notes',
      text: 'Zoë’s notes\nline two',
      fileType: 'document',
      warnings: [],
    });
  });

  it('reads text that is not UTF-8 as Latin-1, with a warning', async () => {
    const bytes = Uint8Array.from([...utf8('Caf'), 0xe9, ...utf8(' cr'), 0xe8, ...utf8('me 10'), 0x80]);
    const parsed = await parseFile({ fileName: 'old.txt', bytes });
    expect(parsed.text).toBe('Café crème 10€');
    expect(parsed.warnings).toEqual(['The file is not valid UTF-8; it was read as Latin-1 (Windows-1252).']);
  });

  it('refuses whitespace-only and empty files as empty', async () => {
    await expectNoContent(parseFile({ fileName: 'blank.txt', bytes: utf8(' \n\t\r\n  ') }));
    await expectNoContent(parseFile({ fileName: 'empty.txt', bytes: new Uint8Array() }));
    await expectNoContent(parseFile({ fileName: 'empty.csv', bytes: utf8(',,\n,,\n') }));
  });

  it('refuses binary files it cannot read, naming what they are', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await expect(parseFile({ fileName: 'logo.png', bytes: png })).rejects.toThrow(
      new UnsupportedFileError('PNG image files are not supported.'),
    );
    const noise = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256);
    await expect(parseFile({ fileName: 'data.bin', bytes: noise })).rejects.toThrow(
      new UnsupportedFileError('.bin files are not supported.'),
    );
  });

  it('refuses legacy Office files by name', async () => {
    const ole2 = new Uint8Array(2048);
    ole2.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    ole2.set(new Uint8Array(Buffer.from('WordDocument', 'utf16le')), 1024);
    await expect(parseFile({ fileName: 'old', bytes: ole2 })).rejects.toThrow(
      'Word 97–2003 (.doc) files are not supported. Save the file as .docx and try again.',
    );
    await expect(parseFile({ fileName: 'sheet.xls', bytes: ole2 })).rejects.toThrow(
      'Excel 97–2003 (.xls) files are not supported. Save the file as .xlsx and try again.',
    );
  });

  it('refuses a ZIP that is not a document', async () => {
    const bytes = zipSync({ 'photos/a.txt': strToU8('not a document') });
    await expect(parseFile({ fileName: 'photos.zip', bytes })).rejects.toBeInstanceOf(UnsupportedFileError);
  });

  describe('limits', () => {
    it('refuses a file over the size limit before reading it', async () => {
      await expect(
        parseFile({ fileName: 'a.txt', bytes: utf8('x'.repeat(100)) }, { maxBytes: 99 }),
      ).rejects.toThrow(FileTooLargeError);
    });

    it('refuses an archive whose directory admits it expands past the limit, without inflating it', async () => {
      const bytes = zipSync({
        '[Content_Types].xml': strToU8('<Types/>'),
        'word/document.xml': strToU8('<w/>'),
      });
      setDeclaredSize(bytes, 'word/document.xml', 0x7fffffff);
      await expect(parseFile({ fileName: 'bomb.docx', bytes })).rejects.toThrow(
        new FileTooLargeError('The file expands to more than 256 MB.'),
      );
    });

    it('refuses an archive entry that expands beyond the size it declares', { timeout: 10_000 }, async () => {
      const bomb = deflateRawSync(Buffer.alloc(64 * 1024 * 1024));
      const bytes = zipSync({
        '[Content_Types].xml': strToU8('<Types/>'),
        'word/document.xml': [strToU8('<w/>'), { level: 0 }],
      });
      const lying = replaceEntryData(bytes, 'word/document.xml', new Uint8Array(bomb), 8, 1000);
      await expect(parseFile({ fileName: 'bomb.docx', bytes: lying })).rejects.toThrow(
        new FileTooLargeError('An archive entry expands beyond the size it declares.'),
      );
    });

    it('refuses an archive with more entries than the limit', async () => {
      await expect(
        parseFile({ fileName: 'budget.xlsx', bytes: makeXlsx(XLSX_SHEETS) }, { maxArchiveEntries: 3 }),
      ).rejects.toThrow(FileTooLargeError);
    });

    it('keeps the first characters of a huge sheet and says so', async () => {
      const rows = Array.from({ length: 5000 }, (_, i) => `row ${i},value ${i}`).join('\n');
      const parsed = await parseFile(
        { fileName: 'big.csv', bytes: utf8(`Key,Value\n${rows}`) },
        { maxChars: 1000 },
      );
      expect(parsed.text.length).toBeLessThanOrEqual(1000);
      expect(parsed.text).toContain('Key: row 0\nValue: value 0');
      expect(parsed.warnings).toEqual(['Only the first 1,000 characters were kept.']);
    });

    it('abandons a parse that outlives its time limit', async () => {
      const bytes = await makePdf(Array.from({ length: 30 }, (_, i) => [`Page ${i + 1}`]));
      await expect(parseFile({ fileName: 'long.pdf', bytes }, { timeoutMs: 5 })).rejects.toBeInstanceOf(
        ParseTimeoutError,
      );
    });

    it('stops when the caller aborts', async () => {
      const controller = new AbortController();
      const reason = new Error('upload cancelled');
      const parsing = parseFile(
        { fileName: 'handbook.docx', bytes: await makeDocx() },
        { signal: controller.signal },
      );
      controller.abort(reason);
      await expect(parsing).rejects.toBe(reason);
    });
  });

  describe('network', () => {
    afterEach(() => vi.restoreAllMocks());

    it('never opens a connection or fetches anything (OCR stays off, fonts come from disk)', async () => {
      const connect = vi.spyOn(net.Socket.prototype, 'connect');
      const fetch = vi.spyOn(globalThis, 'fetch');
      const samples: Array<[string, Uint8Array]> = [
        ['a.pdf', await makePdf([['Text']])],
        ['a.docx', await makeDocx()],
        ['a.xlsx', makeXlsx(XLSX_SHEETS)],
        ['a.pptx', makePptx([{ title: 'T', bullets: ['B'] }])],
        ['a.odt', makeOpenDocument('application/vnd.oasis.opendocument.text', 'T', ODT_BODY)],
        ['a.numbers', makeNumbers('S', 'T', [['A'], ['b']])],
        ['a.rtf', utf8(RTF)],
        ['a.html', utf8('<img src="https://example.test/x.png"><p>Hi</p>')],
      ];
      for (const [fileName, bytes] of samples) {
        await parseFile({ fileName, bytes });
      }
      expect(connect).not.toHaveBeenCalled();
      expect(fetch).not.toHaveBeenCalled();
    });
  });
});

/** Rewrites an entry's uncompressed size in the central directory, as a bomb that admits its size would. */
function setDeclaredSize(zip: Uint8Array, name: string, size: number): void {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const header = centralHeaderOf(zip, name);
  view.setUint32(header + 24, size, true);
}

/** A copy of `zip` with one entry's data replaced, its method and declared size set as given. */
function replaceEntryData(
  zip: Uint8Array,
  name: string,
  data: Uint8Array,
  method: number,
  size: number,
): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const central = centralHeaderOf(zip, name);
  const local = view.getUint32(central + 42, true);
  const nameLength = view.getUint16(local + 26, true);
  const extraLength = view.getUint16(local + 28, true);
  const oldStart = local + 30 + nameLength + extraLength;
  const oldSize = view.getUint32(central + 20, true);
  const delta = data.length - oldSize;
  const out = new Uint8Array(zip.length + delta);
  out.set(zip.subarray(0, oldStart));
  out.set(data, oldStart);
  out.set(zip.subarray(oldStart + oldSize), oldStart + data.length);
  const outView = new DataView(out.buffer);
  const movedCentral = central + delta;
  for (const [at, value] of [
    [local + 8, method],
    [movedCentral + 10, method],
  ] as const) {
    outView.setUint16(at, value, true);
  }
  for (const at of [local + 18, movedCentral + 20]) outView.setUint32(at, data.length, true);
  for (const at of [local + 22, movedCentral + 24]) outView.setUint32(at, size, true);
  // entries after the replaced one moved, and so did the central directory
  const end = out.length - 22;
  outView.setUint32(end + 16, outView.getUint32(end + 16, true) + delta, true);
  const count = outView.getUint16(end + 10, true);
  let at = outView.getUint32(end + 16, true);
  for (let i = 0; i < count; i++) {
    const offset = outView.getUint32(at + 42, true);
    if (offset > local) outView.setUint32(at + 42, offset + delta, true);
    at +=
      46 +
      outView.getUint16(at + 28, true) +
      outView.getUint16(at + 30, true) +
      outView.getUint16(at + 32, true);
  }
  return out;
}

function centralHeaderOf(zip: Uint8Array, name: string): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < view.getUint16(end + 10, true); i++) {
    const nameLength = view.getUint16(at + 28, true);
    const entryName = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    if (entryName === name) return at;
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  throw new Error(`no entry ${name}`);
}
