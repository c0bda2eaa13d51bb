import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatHistoryQuerySchema } from './topics';
import { pinRequestSchema } from './search';
import { isoInstantSchema, MAX_INPUT_DEPTH, parseRequest, safeLinkSchema } from './input';

const schema = z.strictObject({
  title: z.string(),
  tags: z.array(z.string()).default([]),
  meta: z.record(z.string(), z.unknown()).optional(),
});

describe('parseRequest', () => {
  it('refuses NUL and other control characters in any string or key, naming the path only', () => {
    for (const [data, where] of [
      [{ title: 'a\u0000b' }, 'body.title'],
      [{ title: 'ok', tags: ['fine', 'bell\u0007'] }, 'body.tags.1'],
      [{ title: 'ok', meta: { 'key\u0000': 1 } }, 'body.meta'],
      [{ title: 'ok', meta: { deep: ['x\u001b[31m'] } }, 'body.meta.deep.0'],
      [{ title: 'del\u007f' }, 'body.title'],
    ] as const) {
      const parsed = parseRequest(schema, data, 'body');
      expect(parsed).toEqual({
        success: false,
        message: `Invalid ${where}: must not contain control characters`,
      });
    }
  });

  it('accepts tab, newline and carriage return in free text', () => {
    expect(parseRequest(schema, { title: 'line one\r\n\tline two' }, 'body')).toEqual({
      success: true,
      data: { title: 'line one\r\n\tline two', tags: [] },
    });
  });

  it('refuses nesting deeper than any payload we define', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const parsed = parseRequest(schema, { title: 'ok', meta: { deep } }, 'body');
    expect(parsed.success).toBe(false);
    expect(!parsed.success && parsed.message).toMatch(/is nested too deeply$/);
    let ok: unknown = 'bottom';
    for (let i = 0; i < MAX_INPUT_DEPTH - 3; i++) ok = [ok];
    expect(parseRequest(schema, { title: 'ok', meta: { ok } }, 'body').success).toBe(true);
  });

  it('never echoes unknown keys or values: 2 MB of them answer a short message', () => {
    const junk = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`junk-${i}-${'k'.repeat(90)}`, i]),
    );
    const parsed = parseRequest(schema, { title: 'ok', ...junk }, 'body');
    expect(parsed).toEqual({ success: false, message: 'Invalid body: has a field that is not accepted' });
  });

  it('bounds the path it names', () => {
    const parsed = parseRequest(schema, { title: 'ok', meta: { ['k'.repeat(5000)]: '\u0000' } }, 'body');
    expect(!parsed.success && parsed.message.length).toBeLessThan(200);
  });
});

describe('dates', () => {
  it('keeps ISO instants between the years 1000 and 9999 (UTC), which PostgreSQL and Date both hold', () => {
    for (const inside of ['2024-02-29T12:00:00+01:00', '1969-12-31T23:59:59Z', '1000-01-01T00:00:00Z'])
      expect(isoInstantSchema.safeParse(inside).success, inside).toBe(true);
    for (const outside of ['0001-01-01T00:00:00Z', '1000-01-01T00:00:00+01:00', '9999-12-31T23:59:59-05:00'])
      expect(isoInstantSchema.safeParse(outside).success, outside).toBe(false);
  });

  it('range-checks the chat history cursor and the pin timestamp', () => {
    expect(chatHistoryQuerySchema.safeParse({ scroll_timestamp: '999999999999999' }).success).toBe(false);
    expect(chatHistoryQuerySchema.safeParse({ scroll_timestamp: '0000-01-01T00:00:00Z' }).success).toBe(
      false,
    );
    expect(chatHistoryQuerySchema.safeParse({ scroll_timestamp: '1700000000000' }).success).toBe(true);
    const pin = { q: 'x', object_id: 'a', timestamp: 1_700_000_000 };
    expect(pinRequestSchema.safeParse(pin).success).toBe(true);
    expect(pinRequestSchema.safeParse({ ...pin, timestamp: 1e12 }).success).toBe(false);
  });
});

describe('safeLinkSchema', () => {
  it('takes http and https links only', () => {
    expect(safeLinkSchema.safeParse('https://intranet.example.com/a?b=1#c').success).toBe(true);
    expect(safeLinkSchema.safeParse('http://wiki.example.com').success).toBe(true);
    for (const link of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x',
      '/relative',
      `https://example.com/${'a'.repeat(3000)}`,
    ])
      expect(safeLinkSchema.safeParse(link).success, link).toBe(false);
  });
});
