// What the files screen refuses before sending anything (spec asking-questions §5): too many files at once, types
// Scout does not read, files over 1 GB, and a zip upload of anything but one zip. The server refuses the same.
import {
  UPLOAD_MAX_FILE_BYTES,
  UPLOAD_MAX_FILES,
  UPLOAD_MAX_ZIP_FILES,
  UPLOAD_AGE_WARNING_MS,
} from '../../../common/limits';
import { files as fileStrings, validation } from '../../../common/strings';
import { isAcceptedUpload, isZipUpload, uploadExtension } from '../../../common/uploads';

/** The first reason the chosen files cannot be sent, or null. */
export function uploadRefusal(
  chosen: ReadonlyArray<{ name: string; type?: string; size: number }>,
  zip: boolean,
): string | null {
  const max = zip ? UPLOAD_MAX_ZIP_FILES : UPLOAD_MAX_FILES;
  if (chosen.length > max) return validation.tooManyFiles(max);
  const accepted = zip ? isZipUpload : isAcceptedUpload;
  const unsupported = [
    ...new Set(
      chosen.filter((file) => !accepted(file)).map((file) => uploadExtension(file.name) || file.name),
    ),
  ];
  if (unsupported.length > 0) return validation.unsupportedFileTypes(unsupported);
  const tooLarge = chosen.find((file) => file.size > UPLOAD_MAX_FILE_BYTES);
  return tooLarge ? fileStrings.fileTooLarge(tooLarge.name) : null;
}

/** The spec's 30-day warning applies to this file. */
export function isPastAgeWarning(createdAt: string, now: number = Date.now()): boolean {
  return now - Date.parse(createdAt) > UPLOAD_AGE_WARNING_MS;
}
