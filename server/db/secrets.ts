/**
 * Secrets at rest (DESIGN §3): app credentials, OAuth tokens and SSO client secrets are stored as
 * AES-256-GCM ciphertext. The key comes from SCOUT_SECRET_KEY or is generated once into
 * `<DATA_DIR>/secret.key`.
 *
 * Ciphertext format: `v1.` + base64(iv[12] ‖ tag[16] ‖ ciphertext). The version prefix leaves room
 * for key rotation without guessing at old rows.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_FILE = 'secret.key';
const MEMORY_DATA_DIR = 'memory://';

export class SecretDecryptionError extends Error {
  constructor(message = 'cannot decrypt secret: wrong key or tampered ciphertext') {
    super(message);
    this.name = 'SecretDecryptionError';
  }
}

export function generateSecretKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** Accepts 64 hex characters or base64/base64url of 32 bytes. */
export function parseSecretKey(text: string): Buffer {
  const value = text.trim();
  // hex first: 64 hex characters are also valid base64 (of 48 bytes)
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const key = Buffer.from(value, 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  throw new Error('secret key must be 32 bytes, written as 64 hex characters or base64');
}

// Keys for `memory://` stores live as long as the process, like the data they protect.
let memoryKey: Buffer | undefined;

/**
 * The key from env SCOUT_SECRET_KEY, else `<dataDir>/secret.key`, created (mode 0600) on first use.
 * `dataDir` defaults to env DATA_DIR, then './data'; `'memory://'` gives a per-process key.
 */
export function loadSecretKey(dataDir: string = process.env.DATA_DIR ?? './data'): Buffer {
  const fromEnv = process.env.SCOUT_SECRET_KEY;
  if (fromEnv) return parseSecretKey(fromEnv);
  if (dataDir === MEMORY_DATA_DIR) return (memoryKey ??= generateSecretKey());

  const file = path.join(dataDir, KEY_FILE);
  try {
    return parseSecretKey(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = generateSecretKey();
  try {
    // 'wx' fails if another process created the file since our read; then theirs wins
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return parseSecretKey(readFileSync(file, 'utf8'));
  }
}

function checkKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) throw new Error(`secret key must be ${KEY_BYTES} bytes, got ${key.length}`);
}

/**
 * `context` is bound as associated data (e.g. the owning row's id), so a ciphertext copied onto
 * another row does not decrypt there.
 */
export function encryptWithKey(key: Uint8Array, plaintext: string, context?: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function decryptWithKey(key: Uint8Array, ciphertext: string, context?: string): string {
  checkKey(key);
  const dot = ciphertext.indexOf('.');
  if (dot < 0 || ciphertext.slice(0, dot) !== VERSION) {
    throw new SecretDecryptionError('cannot decrypt secret: unknown format');
  }
  const raw = Buffer.from(ciphertext.slice(dot + 1), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptionError('cannot decrypt secret: truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretDecryptionError();
  }
}

let defaultKey: Buffer | undefined;

/** Sets the key `encryptSecret`/`decryptSecret` use (the server does this once at start). */
export function setDefaultSecretKey(key: Uint8Array): void {
  checkKey(key);
  defaultKey = Buffer.from(key);
}

function currentKey(): Buffer {
  return (defaultKey ??= loadSecretKey());
}

/** Encrypts with the default key: the one set at start, else `loadSecretKey()`. */
export function encryptSecret(plaintext: string, context?: string): string {
  return encryptWithKey(currentKey(), plaintext, context);
}

export function decryptSecret(ciphertext: string, context?: string): string {
  return decryptWithKey(currentKey(), ciphertext, context);
}
