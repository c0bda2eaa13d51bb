import { describe, expect, it } from 'vitest';
import { loginCodeInputSchema } from '../../common/api/auth';
import { isLoginCode } from '../../common/limits';
import { generateLoginCode, normaliseLoginCode } from './login-codes';

describe('login codes', () => {
  it('are 4 groups of 5 characters without look-alikes, and differ every time', () => {
    const codes = Array.from({ length: 200 }, generateLoginCode);
    for (const code of codes) {
      expect(isLoginCode(code)).toBe(true);
      expect(code).toMatch(/^[A-HJ-NP-Z2-9-]+$/);
    }
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('read the same however they are typed', () => {
    const code = 'ABCDE-FGHJK-LMNPQ-RSTUV';
    for (const typed of ['abcde-fghjk-lmnpq-rstuv', 'ABCDEFGHJKLMNPQRSTUV', ' abcde fghjk lmnpq rstuv ']) {
      expect(loginCodeInputSchema.parse(typed)).toBe(normaliseLoginCode(code));
    }
    expect(loginCodeInputSchema.safeParse('ABCDE-FGHJK').success).toBe(false);
  });
});
