// The parsers lent to connectors (ConnectorContext.files): a file a source holds becomes text the way an upload
// does, in the parsing workers (server/parsing/isolated.ts), never on the sync's event loop. A file Scout cannot
// read is no reason to fail a sync: it stays indexed by its title and path, and the reason goes to the log.
import { isAcceptedUpload } from '../../common/uploads';
import { ResponseTooLargeError, type ConnectorLogger, type FileParser } from '../../connectors/sdk';
import { Semaphore } from '../../connectors/sdk/limits';
import { ParseError } from '../parsing/errors';
import { parseFileIsolated } from '../parsing/isolated';
import { DEFAULT_PARSE_LIMITS } from '../parsing/limits';

/**
 * The largest file a sync downloads to parse. Far below the upload limit (1 GB): a sync's files are held in memory
 * without anyone waiting on them, indexed text stops at a million characters whatever the file's size, and past
 * this size a file is mostly images or data that yields no more text. A larger file is indexed by title and path.
 */
export const CONNECTOR_FILE_MAX_BYTES = 100 * 1024 * 1024;
/**
 * Files held at once by this process's syncs, from the start of their download to the end of their parse: each
 * may be this large in memory and take a worker with a large heap, so every connection of the process waits its
 * turn for the same few.
 */
const FILES_IN_HAND = 2;
const inHand = new Semaphore(FILES_IN_HAND);
/** Time for one download: a file of the cap at under 0.5 MB/s. */
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

export function connectorFileParser(logger: ConnectorLogger, signal: AbortSignal): FileParser {
  const maxBytes = Math.min(CONNECTOR_FILE_MAX_BYTES, DEFAULT_PARSE_LIMITS.maxBytes);
  return {
    async parse(file, download) {
      const facts = { file: file.name, mimeType: file.mimeType, size: file.size };
      const skip = (reason: string) => {
        logger.debug({ ...facts, reason }, 'file not parsed');
        return null;
      };
      if (!isAcceptedUpload({ name: file.name, type: file.mimeType }))
        return skip('not a format Scout reads');
      if (file.size === 0) return skip('empty');
      if (file.size !== undefined && file.size > maxBytes) return skip('over the size limit');
      const release = await inHand.acquire(signal);
      try {
        let bytes: Uint8Array;
        try {
          bytes = await download({ maxBodyBytes: maxBytes, timeoutMs: DOWNLOAD_TIMEOUT_MS });
        } catch (error) {
          if (error instanceof ResponseTooLargeError) return skip('over the size limit');
          throw error;
        }
        try {
          const input = { fileName: file.name, ...(file.mimeType ? { mimeType: file.mimeType } : {}), bytes };
          return (await parseFileIsolated(input, { signal })).text;
        } catch (error) {
          signal.throwIfAborted();
          // Whatever stopped the parse (a refusal, a timeout, a worker out of heap) fails this file only. Parse
          // errors' messages never quote the file; other errors' might, so only their class is logged.
          if (error instanceof ParseError) return skip(`${error.name}: ${error.message}`);
          return skip(error instanceof Error ? error.name : 'parse failed');
        }
      } finally {
        release();
      }
    },
  };
}
