import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SecretDecryptionError,
  decryptWithKey,
  encryptWithKey,
  generateSecretKey,
  loadSecretKey,
  parseSecretKey,
} from './secrets';

describe('secrets', () => {
  const key = generateSecretKey();

  it('round-trips text, including empty and non-ASCII', () => {
    for (const plaintext of ['', 'xoxb-123-456', '{"refresh_token":"ü✓ 日本"}', 'x'.repeat(100_000)]) {
      const ciphertext = encryptWithKey(key, plaintext);
      expect(ciphertext.startsWith('v1.')).toBe(true);
      expect(ciphertext).not.toContain(plaintext || '\u0000');
      expect(decryptWithKey(key, ciphertext)).toBe(plaintext);
    }
  });

  it('uses a fresh IV per encryption', () => {
    expect(encryptWithKey(key, 'same')).not.toBe(encryptWithKey(key, 'same'));
  });

  it('detects tampering', () => {
    const ciphertext = encryptWithKey(key, 'top secret');
    const raw = Buffer.from(ciphertext.slice(3), 'base64');
    for (const at of [0, 12, 28, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at] = (bad[at] ?? 0) ^ 1;
      expect(() => decryptWithKey(key, `v1.${bad.toString('base64')}`)).toThrow(SecretDecryptionError);
    }
    expect(() => decryptWithKey(key, 'v1.AAAA')).toThrow(SecretDecryptionError);
    expect(() => decryptWithKey(key, 'v2.' + ciphertext.slice(3))).toThrow(SecretDecryptionError);
  });

  it('fails with the wrong key', () => {
    const ciphertext = encryptWithKey(key, 'top secret');
    expect(() => decryptWithKey(generateSecretKey(), ciphertext)).toThrow(SecretDecryptionError);
  });

  it('binds the optional context', () => {
    const ciphertext = encryptWithKey(key, 'token', 'connection:1');
    expect(decryptWithKey(key, ciphertext, 'connection:1')).toBe('token');
    expect(() => decryptWithKey(key, ciphertext, 'connection:2')).toThrow(SecretDecryptionError);
    expect(() => decryptWithKey(key, ciphertext)).toThrow(SecretDecryptionError);
  });

  it('rejects keys that are not 32 bytes', () => {
    expect(() => encryptWithKey(Buffer.alloc(16), 'x')).toThrow(/32 bytes/);
    expect(() => parseSecretKey('abc')).toThrow(/32 bytes/);
    expect(() => parseSecretKey(Buffer.alloc(31).toString('base64'))).toThrow(/32 bytes/);
  });

  it('parses hex and base64 keys to the same bytes', () => {
    expect(parseSecretKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64url')).equals(key)).toBe(true);
  });

  describe('loadSecretKey', () => {
    let dir: string;
    const savedEnv = process.env.SCOUT_SECRET_KEY;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'scout-secrets-'));
      delete process.env.SCOUT_SECRET_KEY;
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
      if (savedEnv === undefined) delete process.env.SCOUT_SECRET_KEY;
      else process.env.SCOUT_SECRET_KEY = savedEnv;
    });

    it('generates the key file once, mode 0600, and reuses it', () => {
      const dataDir = path.join(dir, 'data');
      const first = loadSecretKey(dataDir);
      const file = path.join(dataDir, 'secret.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(parseSecretKey(readFileSync(file, 'utf8')).equals(first)).toBe(true);
      expect(loadSecretKey(dataDir).equals(first)).toBe(true);
      expect(decryptWithKey(loadSecretKey(dataDir), encryptWithKey(first, 'kept'))).toBe('kept');
    });

    it('prefers SCOUT_SECRET_KEY', () => {
      process.env.SCOUT_SECRET_KEY = key.toString('hex');
      expect(loadSecretKey(dir).equals(key)).toBe(true);
      process.env.SCOUT_SECRET_KEY = key.toString('base64');
      expect(loadSecretKey(dir).equals(key)).toBe(true);
    });

    it('keeps memory:// keys in the process, not on disk', () => {
      expect(loadSecretKey('memory://').equals(loadSecretKey('memory://'))).toBe(true);
      expect(existsSync('memory:')).toBe(false);
    });
  });
});
