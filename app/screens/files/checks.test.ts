import { describe, expect, it } from 'vitest';
import { UPLOAD_AGE_WARNING_MS, UPLOAD_MAX_FILE_BYTES } from '../../../common/limits';
import { files as fileStrings, validation } from '../../../common/strings';
import { isPastAgeWarning, uploadRefusal } from './checks';

const file = (name: string, size = 10, type = '') => ({ name, size, type });

describe('uploadRefusal', () => {
  it('accepts up to 50 documents of the accepted types', () => {
    expect(
      uploadRefusal([file('a.pdf'), file('b.DOCX'), file('c.numbers'), file('d.tsv')], false),
    ).toBeNull();
    expect(
      uploadRefusal(
        Array.from({ length: 50 }, (_, i) => file(`${i}.txt`)),
        false,
      ),
    ).toBeNull();
  });

  it("refuses with the spec's strings", () => {
    expect(
      uploadRefusal(
        Array.from({ length: 51 }, (_, i) => file(`${i}.txt`)),
        false,
      ),
    ).toBe(validation.tooManyFiles(50));
    expect(uploadRefusal([file('a.exe'), file('b.png'), file('c.exe'), file('d.pdf')], false)).toBe(
      validation.unsupportedFileTypes(['.exe', '.png']),
    );
    expect(uploadRefusal([file('big.pdf', UPLOAD_MAX_FILE_BYTES + 1)], false)).toBe(
      fileStrings.fileTooLarge('big.pdf'),
    );
  });

  it('takes one zip only in the zip variant', () => {
    expect(uploadRefusal([file('site.zip')], true)).toBeNull();
    expect(uploadRefusal([file('a.zip'), file('b.zip')], true)).toBe(validation.tooManyFiles(1));
    expect(uploadRefusal([file('a.pdf')], true)).toBe(validation.unsupportedFileTypes(['.pdf']));
  });
});

describe('isPastAgeWarning', () => {
  it('warns only past 30 days', () => {
    const now = Date.UTC(2027, 5, 1);
    expect(isPastAgeWarning(new Date(now - UPLOAD_AGE_WARNING_MS + 1000).toISOString(), now)).toBe(false);
    expect(isPastAgeWarning(new Date(now - UPLOAD_AGE_WARNING_MS - 1000).toISOString(), now)).toBe(true);
  });
});
