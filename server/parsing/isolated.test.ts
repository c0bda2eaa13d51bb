import { afterAll, describe, expect, it } from 'vitest';
import { FileTooLargeError, NoContentError, ParseTimeoutError, UnsupportedFileError } from './errors';
import { parseFile } from './index';
import { ParserWorkers } from './isolated';
import { makeDocx } from './testing';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('ParserWorkers', () => {
  const workers = new ParserWorkers({ memoryLimitMb: 256 });
  afterAll(() => workers.close());

  it('parses in a worker thread exactly as in process, reusing the worker', { timeout: 20_000 }, async () => {
    const input = { fileName: 'handbook.docx', bytes: await makeDocx() };
    const inProcess = await parseFile(input);
    expect(await workers.parse(input)).toEqual(inProcess);
    expect(await workers.parse({ fileName: 'a.csv', bytes: utf8('Name\nAda\n') })).toMatchObject({
      text: 'Name\n\nName: Ada',
    });
  });

  it('brings parse errors back with their class and message', { timeout: 20_000 }, async () => {
    const empty = workers.parse({ fileName: 'blank.txt', bytes: utf8('   ') });
    await expect(empty).rejects.toBeInstanceOf(NoContentError);
    await expect(empty).rejects.toThrow('No content was parsed from the file.');
    await expect(
      workers.parse({ fileName: 'x.png', bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0]) }),
    ).rejects.toThrow(new UnsupportedFileError('PNG image files are not supported.'));
  });

  it(
    'terminates a parse stuck in one synchronous step once its time is up',
    { timeout: 20_000 },
    async () => {
      // millions of stray end tags under a deep stack keep the HTML tokenizer busy for ~4 s (idle machine) without
      // yielding, well past the time limit and its grace; the character cap is raised so all 30M reach the tokenizer
      const hostile = utf8(`${'<div>'.repeat(500)}${'</x>'.repeat(7_500_000)}`);
      const started = Date.now();
      await expect(
        workers.parse({ fileName: 'hostile.html', bytes: hostile }, { timeoutMs: 200, maxChars: 40_000_000 }),
      ).rejects.toThrow(ParseTimeoutError);
      expect(Date.now() - started).toBeLessThan(4000);
      // the next file gets a fresh worker
      expect((await workers.parse({ fileName: 'a.txt', bytes: utf8('still fine') })).text).toBe('still fine');
    },
  );

  it(
    'fails a parse that needs more memory than the worker may use, leaving the server alone',
    { timeout: 20_000 },
    async () => {
      const small = new ParserWorkers({ memoryLimitMb: 16 });
      try {
        const rows = Array.from({ length: 400_000 }, (_, i) => `<p>paragraph ${i}</p>`).join('');
        await expect(small.parse({ fileName: 'big.html', bytes: utf8(rows) })).rejects.toThrow(
          FileTooLargeError,
        );
      } finally {
        await small.close();
      }
    },
  );
});
