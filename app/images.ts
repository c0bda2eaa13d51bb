import { LOGO_MIME_TYPES, PHOTO_MIME_TYPES } from '../common/api/orgs';
import { LOGO_MAX_BYTES } from '../common/limits';
import { validation } from '../common/strings';
import { imageCopy } from './strings';

export type ImageRead = { ok: true; dataUrl: string } | { ok: false; error: string };

export type ImageKind = {
  types: readonly string[];
  typeError: string;
  /** Spec §5: the workspace logo must be square. */
  square: boolean;
};

export const LOGO_IMAGE: ImageKind = {
  types: LOGO_MIME_TYPES,
  typeError: imageCopy.NOT_AN_IMAGE,
  square: true,
};
export const PHOTO_IMAGE: ImageKind = {
  types: PHOTO_MIME_TYPES,
  typeError: imageCopy.PHOTO_NOT_AN_IMAGE,
  square: false,
};

/** The checks that need no decoding: size (spec §9: 5242880 bytes) and type. */
export function checkImageFile(file: Pick<File, 'size' | 'type'>, kind: ImageKind): string | null {
  if (!kind.types.includes(file.type)) return kind.typeError;
  if (file.size > LOGO_MAX_BYTES) return imageCopy.TOO_LARGE;
  return null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

function dimensionsOf(dataUrl: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => reject(new Error('not an image'));
    image.src = dataUrl;
  });
}

/**
 * A picked image as the data URL the server takes, checked in the browser first so the person hears at once what
 * is wrong. The server checks the same again on the decoded bytes.
 */
export async function readImageFile(file: File, kind: ImageKind): Promise<ImageRead> {
  const problem = checkImageFile(file, kind);
  if (problem) return { ok: false, error: problem };
  try {
    const dataUrl = await readAsDataUrl(file);
    const { width, height } = await dimensionsOf(dataUrl);
    if (kind.square && width !== height) return { ok: false, error: validation.LOGO_MUST_BE_SQUARE };
    return { ok: true, dataUrl };
  } catch {
    return { ok: false, error: imageCopy.UNREADABLE };
  }
}
