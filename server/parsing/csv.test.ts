import { describe, expect, it } from 'vitest';
import { parseDelimited, readDelimitedRows } from './csv';
import { TextBudget } from './limits';
import { writeRows } from './rows';
import { parseContext } from './testing';

const rows = (text: string, delimiter = ',') => [...readDelimitedRows(text, delimiter)];
const csv = (text: string, format: 'csv' | 'tsv' = 'csv') =>
  parseDelimited(parseContext(new TextEncoder().encode(text)), format).text;

describe('readDelimitedRows', () => {
  it('splits fields and records, with any line ending', () => {
    expect(rows('a,b\r\nc,d\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('reads quoted fields holding delimiters, doubled quotes and line breaks', () => {
    expect(rows('"a,1","say ""hi""","two\r\nlines"\nx,"",y')).toEqual([
      ['a,1', 'say "hi"', 'two\r\nlines'],
      ['x', '', 'y'],
    ]);
  });

  it('keeps empty fields, and ends without a phantom row after a final line break', () => {
    expect(rows(',a,,\n')).toEqual([['', 'a', '', '']]);
  });

  it('treats a quote inside an unquoted field as text, and tolerates an unterminated quote', () => {
    expect(rows('5" disk,ok\n"open')).toEqual([['5" disk', 'ok'], ['open']]);
  });

  it('reads tab-separated values with the same quoting', () => {
    expect(rows('a\t"b\tc"\n', '\t')).toEqual([['a', 'b\tc']]);
  });
});

describe('parseDelimited', () => {
  it("sniffs a semicolon delimiter, or honours Excel's sep= line", () => {
    expect(csv('Name;Amount\nRent;1,5\n')).toBe('Name\tAmount\n\nName: Rent\nAmount: 1,5\n\n');
    expect(csv('sep=|\nName|Amount\nRent|2\n')).toBe('Name\tAmount\n\nName: Rent\nAmount: 2\n\n');
  });

  it('writes rows as tab-separated lines when the first row is not a header', () => {
    expect(csv('2024-01-01,12.5\n2024-01-02,13\n')).toBe('2024-01-01\t12.5\n2024-01-02\t13\n');
    expect(csv('Name,Name\nA,B\n')).toBe('Name\tName\nA\tB\n');
  });

  it('labels values past the header with their column number, and skips empty rows and cells', () => {
    expect(csv('Name,Team\nAda,,extra\n,,\nBo,Core\n')).toBe(
      'Name\tTeam\n\nName: Ada\nColumn 3: extra\n\nName: Bo\nTeam: Core\n\n',
    );
  });

  it('reads TSV by its format, not by sniffing', () => {
    expect(csv('a,b\tc\n1,2\t3\n', 'tsv')).toBe('a,b\tc\n\na,b: 1,2\nc: 3\n\n');
  });
});

describe('writeRows', () => {
  it('stops when the budget is spent and says so', () => {
    const budget = new TextBudget(32);
    const complete = writeRows(
      [['Key', 'Value'], ...Array.from({ length: 10 }, (_, i) => [`k${i}`, `v${i}`])],
      budget,
    );
    expect(complete).toBe(false);
    expect(budget.full).toBe(true);
    expect(budget.toString()).toBe('Key\tValue\n\nKey: k0\nValue: v0\n\nKe');
  });
});
