// An upload's bytes live in the store beside its row (upload_blobs), cut into pieces so no single value nears
// PostgreSQL's 1 GB field limit and a read never needs one huge row.
//
// The pieces travel as base64 text, encoded and decoded natively on our side and by PostgreSQL's own
// encode/decode: the embedded driver's bytea conversion walks the bytes one JavaScript string at a time (~4 s per
// megabyte, all of it blocking the event loop), where this takes ~20 ms.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/store';

/** 1 MB per row: one statement of ~20 ms on the embedded store, few enough rows for a 1 GB file. */
export const BLOB_PIECE_BYTES = 1024 * 1024;

/**
 * Writes the bytes of an upload whose row exists, a statement per piece, letting the event loop run between
 * them. Called outside the row's transaction, so the store serves other queries meanwhile: a crash midway leaves
 * fewer bytes than the row's size_bytes, which readUploadBytes refuses.
 */
export async function writeUploadBytes(
  db: DbOrTx,
  ref: { orgId: string; uploadId: string },
  bytes: Uint8Array,
): Promise<void> {
  for (let seq = 0; seq * BLOB_PIECE_BYTES < bytes.length; seq++) {
    const piece = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(
      seq * BLOB_PIECE_BYTES,
      (seq + 1) * BLOB_PIECE_BYTES,
    );
    await db.execute(sql`
      INSERT INTO upload_blobs (org_id, upload_id, seq, data)
      VALUES (${ref.orgId}::uuid, ${ref.uploadId}::uuid, ${seq}, decode(${piece.toString('base64')}, 'base64'))`);
    await yieldToEventLoop();
  }
}

/** The bytes of an upload, or null when fewer than `sizeBytes` were stored (its upload did not finish). */
export async function readUploadBytes(
  db: DbOrTx,
  ref: { orgId: string; uploadId: string; sizeBytes: number },
): Promise<Buffer | null> {
  const pieces: Buffer[] = [];
  for (let seq = 0; ; seq++) {
    const result = await db.execute(sql`
      SELECT encode(data, 'base64') AS data FROM upload_blobs
      WHERE org_id = ${ref.orgId}::uuid AND upload_id = ${ref.uploadId}::uuid AND seq = ${seq}`);
    const row = result.rows[0];
    if (!row) break;
    pieces.push(Buffer.from(String(row.data), 'base64'));
    await yieldToEventLoop();
  }
  const bytes = Buffer.concat(pieces);
  return bytes.length === ref.sizeBytes ? bytes : null;
}
