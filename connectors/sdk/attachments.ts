// Mail attachments as every mail connector indexes them: each read by Scout's parsers where they read its format,
// and written into its message's document under its own name, so a passage found in an attachment is cited as the
// message's, by file, and the mailbox's owner alone reads it as they read the message.
import { HttpStatusError } from './errors';
import type { DownloadLimits, FileParser, SourceFile } from './types';

/** An attachment's name, and the text Scout's parsers read from it (null when they read none). */
export interface AttachmentText {
  readonly name: string;
  readonly text: string | null;
}

/**
 * An attachment's text, or null: a format Scout's parsers do not read, over the limit, unreadable, or one the mail
 * service will not hand over (an attachment of a message deleted meanwhile, which its next sync or prune removes).
 */
export async function readAttachment(
  files: FileParser,
  file: SourceFile,
  download: (limits: DownloadLimits) => Promise<Uint8Array>,
): Promise<string | null> {
  try {
    return await files.parse(file, download);
  } catch (error) {
    if (error instanceof HttpStatusError) return null;
    throw error;
  }
}

/** The blocks a message's attachments add to its text: all their names, then each one read, under its name. */
export function attachmentBlocks(attachments: readonly AttachmentText[]): string[] {
  if (attachments.length === 0) return [];
  return [
    `Attachments: ${attachments.map((attachment) => attachment.name).join(', ')}`,
    ...attachments.flatMap(({ name, text }) => (text ? [`Attachment: ${name}\n\n${text}`] : [])),
  ];
}
