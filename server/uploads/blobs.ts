// An upload's bytes live in the store beside its row (upload_blobs), cut into pieces so no single value nears
// PostgreSQL's 1 GB field limit and a read never needs one huge row. Written inside the upload's transaction.
import { uploadBlobs } from '../db/schema';
import type { DbOrTx } from '../db/store';

/** 1 MB per row: small enough for one bind parameter in either driver, few enough rows for a 1 GB file. */
export const BLOB_PIECE_BYTES = 1024 * 1024;

export async function writeUploadBytes(
  tx: DbOrTx,
  ref: { orgId: string; uploadId: string },
  bytes: Uint8Array,
): Promise<void> {
  for (let seq = 0; seq * BLOB_PIECE_BYTES < bytes.length; seq++) {
    const piece = bytes.subarray(seq * BLOB_PIECE_BYTES, (seq + 1) * BLOB_PIECE_BYTES);
    await tx.insert(uploadBlobs).values({ ...ref, seq, data: piece });
  }
}
