// The files screen's calls. Listing and deleting go through the one API client; uploading goes through
// XMLHttpRequest because only it reports upload progress (fetch has no upload progress events), with the same
// bearer token, refresh and error classes as the client.
import { parseErrorBody } from '../../../common/errors';
import {
  SITE_ID_HEADER,
  UPLOAD_FILE_FIELD,
  UPLOAD_VISIBILITY_FIELD,
  uploadListResponseSchema,
  uploadResponseSchema,
  type UploadedDocument,
  type UploadResponse,
  type UploadVisibility,
} from '../../../common/api/uploads';
import { api, apiUrl, refreshTokensIfDue } from '../../api/client';
import { BadRequestError, InvalidResponseError, NetworkError, RequestError } from '../../api/errors';
import { readTokens } from '../../auth/tokens';
import { z } from 'zod';

export const FILES_QUERY_KEY = ['document_uploads'] as const;

export const filesApi = {
  list: async (signal?: AbortSignal): Promise<UploadedDocument[]> =>
    (await api.get('document_uploads', { schema: uploadListResponseSchema, signal })).documents,

  remove: (id: string): Promise<void> =>
    api.delete(`document_uploads/${encodeURIComponent(id)}`, { schema: z.undefined() }),
};

export interface UploadRequest {
  files: readonly File[];
  visibility: UploadVisibility;
  /** The zip variant: one .zip whose documents are uploaded each on its own. */
  zip?: boolean;
  /** With `zip`: the file is a site's export archive, kept whole under this id (the connect dialog's site id). */
  siteId?: string;
  /** Bytes sent so far and in all. */
  onProgress(loaded: number, total: number): void;
}

export async function uploadFiles(request: UploadRequest): Promise<UploadResponse> {
  await refreshTokensIfDue();
  const tokens = readTokens();
  const body = new FormData();
  body.append(UPLOAD_VISIBILITY_FIELD, request.visibility);
  for (const file of request.files) body.append(UPLOAD_FILE_FIELD, file, file.name);
  const path = request.zip ? 'document_uploads/zip' : 'document_uploads';

  return new Promise<UploadResponse>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('accept', 'application/json');
    if (tokens) xhr.setRequestHeader('authorization', `Bearer ${tokens.id_token}`);
    if (request.siteId) xhr.setRequestHeader(SITE_ID_HEADER, request.siteId);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onProgress(event.loaded, event.total);
    };
    xhr.onerror = () => reject(new NetworkError(`POST ${path} failed: network error`, false));
    xhr.onload = () => {
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = undefined;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        const error = parseErrorBody(json);
        const message = error?.message ?? `HTTP ${xhr.status}`;
        reject(
          xhr.status === 400
            ? new BadRequestError(message, error?.code ?? 'BAD_REQUEST')
            : new RequestError(message, xhr.status, error?.code ?? undefined),
        );
        return;
      }
      const parsed = uploadResponseSchema.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else
        reject(
          new InvalidResponseError(`POST ${path}: unexpected response shape`, path, { cause: parsed.error }),
        );
    };
    xhr.send(body);
  });
}
