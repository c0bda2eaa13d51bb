// The parsers as a connector sees them: which files are fetched at all, what a file that cannot be read becomes,
// and what still reaches the connector. Parsing runs in the real parsing workers on real files.
import { describe, expect, it } from 'vitest';
import {
  NotFoundError,
  ResponseTooLargeError,
  type ConnectorLogger,
  type DownloadLimits,
} from '../../connectors/sdk';
import { makePdf } from '../parsing/testing';
import { CONNECTOR_FILE_MAX_BYTES, connectorFileParser } from './file-parser';

const PDF = 'application/pdf';

function recordingLogger() {
  const debug: Array<Record<string, unknown>> = [];
  const keep = (fields: Record<string, unknown>) => void debug.push(fields);
  const logger: ConnectorLogger = { debug: keep, info: keep, warn: keep, error: keep };
  return { logger, debug };
}

/** A download that counts its calls and hands back `bytes`, or throws `error`. */
function source(bytes: Uint8Array | Error) {
  const calls: number[] = [];
  return {
    calls,
    download: (limits: DownloadLimits) => {
      calls.push(limits.maxBodyBytes);
      return bytes instanceof Error ? Promise.reject(bytes) : Promise.resolve(bytes);
    },
  };
}

describe('the parsers lent to connectors', () => {
  it('reads the text of a PDF, fetched with the connector file cap', async () => {
    const parser = connectorFileParser(recordingLogger().logger, new AbortController().signal);
    const file = source(await makePdf([['The quasar telemetry arrived.']]));
    const text = await parser.parse({ name: 'review.pdf', mimeType: PDF, size: 900 }, file.download);
    expect(text).toContain('The quasar telemetry arrived.');
    expect(file.calls).toEqual([CONNECTOR_FILE_MAX_BYTES]);
  });

  it('never fetches a file of a format Scout does not read, an empty one, or one declared over the limit', async () => {
    const { logger, debug } = recordingLogger();
    const parser = connectorFileParser(logger, new AbortController().signal);
    const file = source(new Uint8Array([1, 2, 3]));
    expect(
      await parser.parse({ name: 'photo.png', mimeType: 'image/png', size: 10 }, file.download),
    ).toBeNull();
    expect(await parser.parse({ name: 'legacy.doc', size: 10 }, file.download)).toBeNull();
    expect(await parser.parse({ name: 'blank.pdf', mimeType: PDF, size: 0 }, file.download)).toBeNull();
    const huge = { name: 'scan.pdf', mimeType: PDF, size: CONNECTOR_FILE_MAX_BYTES + 1 };
    expect(await parser.parse(huge, file.download)).toBeNull();
    expect(file.calls).toEqual([]);
    expect(debug.map((fields) => fields.reason)).toEqual([
      'not a format Scout reads',
      'not a format Scout reads',
      'empty',
      'over the size limit',
    ]);
  });

  it('answers null for a download cut at the cap and for a file that will not parse, logging why without content', async () => {
    const { logger, debug } = recordingLogger();
    const parser = connectorFileParser(logger, new AbortController().signal);
    const cut = source(new ResponseTooLargeError('GET', '/files/big', CONNECTOR_FILE_MAX_BYTES));
    expect(await parser.parse({ name: 'big.pdf', mimeType: PDF }, cut.download)).toBeNull();
    const secret = 'the launch code is 0000';
    const corrupt = source(new TextEncoder().encode(`%PDF-1.7\n1 0 obj (${secret}) garbage`));
    expect(await parser.parse({ name: 'broken.pdf', mimeType: PDF }, corrupt.download)).toBeNull();
    expect(debug).toHaveLength(2);
    expect(debug[0]).toMatchObject({ file: 'big.pdf', reason: 'over the size limit' });
    expect(debug[1]).toMatchObject({ file: 'broken.pdf', reason: expect.stringMatching(/Error/) });
    expect(JSON.stringify(debug)).not.toContain(secret);
  });

  it('leaves the download’s own failures to the connector', async () => {
    const parser = connectorFileParser(recordingLogger().logger, new AbortController().signal);
    const gone = source(new NotFoundError(404, 'GET', '/files/gone', ''));
    await expect(parser.parse({ name: 'gone.pdf', mimeType: PDF }, gone.download)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('stops with the job: an aborted sync parses nothing more', async () => {
    const stop = new AbortController();
    stop.abort(new Error('job stopped'));
    const parser = connectorFileParser(recordingLogger().logger, stop.signal);
    const file = source(await makePdf([['Never read.']]));
    await expect(parser.parse({ name: 'late.pdf', mimeType: PDF }, file.download)).rejects.toThrow(
      'job stopped',
    );
    expect(file.calls).toEqual([]);
  });
});
