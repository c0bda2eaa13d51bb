import { describe, it, expect } from 'vitest';
import {
  LOGIN_CODE_PATTERN,
  LOGO_MAX_BYTES,
  UPLOAD_MAX_FILE_BYTES,
  isLoginCode,
  referencesPanelPageSize,
} from './limits';

describe('login code', () => {
  it('accepts four groups of five word characters joined by dashes', () => {
    expect(isLoginCode('abcde-12345-ABCDE-x_y_z')).toBe(true);
    expect(LOGIN_CODE_PATTERN.test('00000-00000-00000-00000')).toBe(true);
  });

  it('rejects wrong group counts, lengths and characters', () => {
    for (const code of [
      'abcde-12345-ABCDE',
      'abcde-12345-ABCDE-x_y_z-fghij',
      'abcd-12345-ABCDE-x_y_z',
      'abcdef-12345-ABCDE-x_y_z',
      'abcde12345ABCDEx_y_z',
      'abcde-12345-ABCDE-x_y_!',
      ' abcde-12345-ABCDE-x_y_z',
      'abcde-12345-ABCDE-x_y_z\n',
      '',
    ]) {
      expect(isLoginCode(code), JSON.stringify(code)).toBe(false);
    }
  });
});

describe('limits', () => {
  it('keeps the byte sizes the spec states', () => {
    expect(LOGO_MAX_BYTES).toBe(5242880);
    expect(UPLOAD_MAX_FILE_BYTES).toBe(1024 ** 3);
  });

  it('sizes the references panel page, at least 10', () => {
    expect(referencesPanelPageSize(400)).toBe(10);
    expect(referencesPanelPageSize(160 + 72 * 15)).toBe(15);
  });
});
