// The iWork Archive format (Index/*.iwa inside a .numbers file): a sequence of chunks, each a zero byte, a 3-byte
// little-endian length, and a Snappy block (raw, without framing or checksums). Decompressed and joined, they hold
// archives: a varint length, a TSP.ArchiveInfo message naming the object's identifier and its messages' types and
// lengths, then those messages. An object is its archive's first message; references between objects are
// TSP.Reference messages whose field 1 is the identifier.
//
// Everything is read defensively: lengths are checked against the bytes present and against a budget, and a
// malformed input throws CorruptFileError rather than reading out of bounds or allocating what it claims.
import { CorruptFileError, FileTooLargeError } from './errors';

export interface IwaObject {
  type: number;
  data: Uint8Array;
}

/** Decompresses one .iwa file, adding its objects to `objects`; returns the bytes it decompressed. */
export function readIwaObjects(file: Uint8Array, objects: Map<number, IwaObject>, budget: number): number {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let at = 0; at < file.length;) {
    if (at + 4 > file.length || file[at] !== 0) corrupt('bad chunk header');
    const length = file[at + 1]! | (file[at + 2]! << 8) | (file[at + 3]! << 16);
    const end = at + 4 + length;
    if (end > file.length) corrupt('chunk out of bounds');
    const chunk = snappyDecompress(file.subarray(at + 4, end), budget - total);
    total += chunk.length;
    chunks.push(chunk);
    at = end;
  }
  const stream = concat(chunks, total);
  for (let at = 0; at < stream.length;) {
    const [infoLength, infoStart] = readVarint(stream, at);
    const infoEnd = infoStart + infoLength;
    if (infoEnd > stream.length) corrupt('archive info out of bounds');
    const info = decodeMessage(stream.subarray(infoStart, infoEnd));
    const identifier = number(info, 1);
    let payload = infoEnd;
    messages(info, 2).forEach((messageInfo, index) => {
      const length = number(messageInfo, 3) ?? 0;
      if (payload + length > stream.length) corrupt('message out of bounds');
      if (index === 0 && identifier !== undefined) {
        objects.set(identifier, {
          type: number(messageInfo, 1) ?? 0,
          data: stream.subarray(payload, payload + length),
        });
      }
      payload += length;
    });
    at = payload;
  }
  return total;
}

/** Raw Snappy: a varint of the decompressed length, then literals and back-references. */
export function snappyDecompress(input: Uint8Array, maxBytes: number): Uint8Array {
  const [length, start] = readVarint(input, 0);
  if (length > maxBytes) throw new FileTooLargeError('The file expands beyond the parsing limit.');
  const output = new Uint8Array(length);
  let out = 0;
  let at = start;
  while (at < input.length) {
    const tag = input[at++]!;
    const kind = tag & 3;
    if (kind === 0) {
      let literal = tag >> 2;
      if (literal >= 60) {
        const width = literal - 59;
        if (at + width > input.length) corrupt('short literal length');
        literal = 0;
        for (let i = 0; i < width; i++) literal += input[at + i]! * 2 ** (8 * i);
        at += width;
      }
      literal += 1;
      if (at + literal > input.length || out + literal > length) corrupt('literal out of bounds');
      output.set(input.subarray(at, at + literal), out);
      at += literal;
      out += literal;
      continue;
    }
    let copy: number;
    let offset: number;
    if (kind === 1) {
      if (at + 1 > input.length) corrupt('short copy');
      copy = 4 + ((tag >> 2) & 7);
      offset = ((tag >> 5) << 8) | input[at++]!;
    } else if (kind === 2) {
      if (at + 2 > input.length) corrupt('short copy');
      copy = (tag >> 2) + 1;
      offset = input[at]! | (input[at + 1]! << 8);
      at += 2;
    } else {
      if (at + 4 > input.length) corrupt('short copy');
      copy = (tag >> 2) + 1;
      offset = (input[at]! | (input[at + 1]! << 8) | (input[at + 2]! << 16)) + input[at + 3]! * 2 ** 24;
      at += 4;
    }
    if (offset === 0 || offset > out || out + copy > length) corrupt('copy out of bounds');
    // copies may overlap what they write (a run), so byte by byte
    for (let i = 0; i < copy; i++) output[out + i] = output[out - offset + i]!;
    out += copy;
  }
  if (out !== length) corrupt('decompressed length mismatch');
  return output;
}

// ── Protocol Buffers, schema-less ──────────────────────────────────────────────────────────────────────────────

/** A message's fields by number: varints and fixed32 as numbers, length-delimited and fixed64 as bytes. */
export type ProtoMessage = Map<number, Array<number | Uint8Array>>;

export function decodeMessage(bytes: Uint8Array): ProtoMessage {
  const fields: ProtoMessage = new Map();
  let at = 0;
  while (at < bytes.length) {
    const [key, afterKey] = readVarint(bytes, at);
    const field = Math.floor(key / 8);
    const wire = key % 8;
    let value: number | Uint8Array;
    switch (wire) {
      case 0: {
        const [varint, next] = readVarint(bytes, afterKey);
        value = varint;
        at = next;
        break;
      }
      case 1:
        if (afterKey + 8 > bytes.length) corrupt('short fixed64');
        value = bytes.subarray(afterKey, afterKey + 8);
        at = afterKey + 8;
        break;
      case 2: {
        const [length, start] = readVarint(bytes, afterKey);
        if (start + length > bytes.length) corrupt('field out of bounds');
        value = bytes.subarray(start, start + length);
        at = start + length;
        break;
      }
      case 5:
        if (afterKey + 4 > bytes.length) corrupt('short fixed32');
        value = new DataView(bytes.buffer, bytes.byteOffset + afterKey, 4).getUint32(0, true);
        at = afterKey + 4;
        break;
      default:
        return corrupt(`wire type ${wire}`);
    }
    const values = fields.get(field);
    if (values) values.push(value);
    else fields.set(field, [value]);
  }
  return fields;
}

export function number(message: ProtoMessage, field: number): number | undefined {
  const value = message.get(field)?.[0];
  return typeof value === 'number' ? value : undefined;
}

export function bytes(message: ProtoMessage, field: number): Uint8Array | undefined {
  const value = message.get(field)?.[0];
  return value instanceof Uint8Array ? value : undefined;
}

export function string(message: ProtoMessage, field: number): string | undefined {
  const value = bytes(message, field);
  return value === undefined ? undefined : new TextDecoder().decode(value);
}

export function message(parent: ProtoMessage, field: number): ProtoMessage | undefined {
  const value = bytes(parent, field);
  return value === undefined ? undefined : decodeMessage(value);
}

export function messages(parent: ProtoMessage, field: number): ProtoMessage[] {
  return (parent.get(field) ?? []).filter((value) => value instanceof Uint8Array).map(decodeMessage);
}

/** The identifier a TSP.Reference field points at. */
export function reference(parent: ProtoMessage, field: number): number | undefined {
  const ref = message(parent, field);
  return ref && number(ref, 1);
}

export function references(parent: ProtoMessage, field: number): number[] {
  return messages(parent, field)
    .map((ref) => number(ref, 1))
    .filter((id): id is number => id !== undefined);
}

/** A varint as a number (exact up to 2^53, which every length and identifier in a real file is below). */
function readVarint(bytes: Uint8Array, start: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let at = start; at < bytes.length && at < start + 10; at++) {
    const byte = bytes[at]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, at + 1];
    scale *= 128;
  }
  return corrupt('bad varint');
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function corrupt(reason: string): never {
  throw new CorruptFileError(`iwa: ${reason}`);
}
