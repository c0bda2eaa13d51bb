// Files attached to a question (spec asking-questions §4 Upload status, §5): idle, in transit while uploading
// (which blocks new uploads and sending), then done once at least one file is stored. Pure, so the rules are
// tested without the question box.
import { files as fileStrings, validation } from '../../common/strings';
import { uploadRefusal } from '../screens/files/checks';

export type AttachedFile = { id: string; name: string };
export type Attachments = { status: 'idle' | 'transit' | 'done'; files: readonly AttachedFile[] };

export const NO_ATTACHMENTS: Attachments = { status: 'idle', files: [] };

/** Why these files cannot be attached now, or null. */
export function attachRefusal(
  attachments: Attachments,
  chosen: ReadonlyArray<{ name: string; type?: string; size: number }>,
): string | null {
  if (attachments.status === 'transit') return validation.WAIT_FOR_CURRENT_UPLOAD;
  return uploadRefusal(chosen, false);
}

export function uploading(attachments: Attachments): Attachments {
  return { ...attachments, status: 'transit' };
}

/** Done when any file is attached (this upload's or an earlier one's); otherwise back to idle. */
export function uploaded(attachments: Attachments, stored: readonly AttachedFile[]): Attachments {
  const files = [
    ...attachments.files,
    ...stored.filter((file) => !attachments.files.some((f) => f.id === file.id)),
  ];
  return { status: files.length > 0 ? 'done' : 'idle', files };
}

export function detach(attachments: Attachments, id: string): Attachments {
  const files = attachments.files.filter((file) => file.id !== id);
  return { status: attachments.status === 'transit' ? 'transit' : files.length > 0 ? 'done' : 'idle', files };
}

/** Why the question may not be sent with these attachments, or null. */
export function attachmentsRefusal(attachments: Attachments, research: boolean): string | null {
  if (attachments.status === 'transit') return validation.WAIT_FOR_FILE_UPLOAD;
  if (research && attachments.files.length > 0) return validation.RESEARCH_NO_ATTACHED_FILES;
  return null;
}

/** The toast for a failed upload: the server's no-content refusal names the file, anything else is generic. */
export function uploadFailureText(message: string | null, fileName: string): string {
  return message === fileStrings.NO_CONTENT_PARSED
    ? fileStrings.emptyDocument(fileName)
    : fileStrings.UPLOAD_ERROR;
}
