import { describe, expect, it } from 'vitest';
import { parseRtf } from './rtf';
import { parseContext } from './testing';

const rtf = (source: string) => parseRtf(parseContext(new TextEncoder().encode(source)));

describe('parseRtf', () => {
  it('turns paragraphs, line breaks, tabs and table cells into text', () => {
    const { text } = rtf(
      String.raw`{\rtf1\ansi one\par two\line three\tab four\par\trowd a\cell b\cell\row}`,
    );
    expect(text).toBe('one\ntwo\nthree\tfour\na\tb\t\n');
  });

  it('decodes \\uN as UTF-16 code units and skips the \\ucN fallback characters after each', () => {
    expect(rtf(String.raw`{\rtf1 na\u239?ve {\uc2\u8364\'80\'80} \u-10179?\u-8704?}`).text).toBe(
      'naïve € 😀',
    );
    // \uc0: no fallback, the next character is text
    expect(rtf(String.raw`{\rtf1\uc0\u8364 5}`).text).toBe('€5');
    // the fallback count ends with the group
    expect(rtf(String.raw`{\rtf1{\uc3\u8364}abc}`).text).toBe('€abc');
  });

  it("decodes \\'hh bytes in the document's code page, or the current font's charset", () => {
    expect(rtf(String.raw`{\rtf1\ansi\ansicpg1252 caf\'e9 \'93quoted\'94 \'80}`).text).toBe(
      'café “quoted” €',
    );
    expect(rtf(String.raw`{\rtf1\ansi\ansicpg1251 \'cc\'e8\'f0}`).text).toBe('Мир');
    const fonts = String.raw`{\fonttbl{\f0 Times;}{\f1\fcharset161 Greek;}{\f2\fcharset128 MS Mincho;}}`;
    expect(rtf(String.raw`{\rtf1\ansi${fonts}\f1 \'e1\'e2\f2 \'93\'fa\'96\'7b}`).text).toBe('αβ日本');
  });

  it('skips the font, colour and style tables, document info, pictures, objects and unknown \\* destinations', () => {
    const source =
      String.raw`{\rtf1{\fonttbl{\f0 Arial;}}{\colortbl;\red1\green2\blue3;}{\stylesheet{\s1 Normal;}}` +
      String.raw`{\info{\author Someone}{\company Acme}}{\*\themedata 0102}{\*\unknownthing hidden}` +
      String.raw`{\pict\wmetafile8 0a0b0c}{\object{\*\objdata 0d0e}{\result shown}}{\*\fldinst PAGE}` +
      String.raw`{\header Running header}Body{\footnote A note}.}`;
    expect(rtf(source).text).toBe('Body.');
  });

  it('skips \\bin data byte for byte, even when it contains braces and backslashes', () => {
    const source = `{\\rtf1 before{\\*\\blob\\bin6 }{\\x\\}}after}`;
    expect(rtf(source).text).toBe('beforeafter');
    expect(rtf(String.raw`{\rtf1 a\bin4 {}\b}`).text).toBe('a');
  });

  it('keeps field results, escaped characters and special characters', () => {
    const source = String.raw`{\rtf1{\field{\*\fldinst HYPERLINK "https://x.test"}{\fldrslt the site}} \{x\}\\ a\~b\_c\emdash\bullet}`;
    expect(rtf(source).text).toBe('the site {x}\\ a b-c—•');
  });

  it('takes the title from the document info', () => {
    const result = rtf(String.raw`{\rtf1{\info{\title Annual\'20plan}{\subject s}}Text}`);
    expect(result.title).toBe('Annual plan');
    expect(result.text).toBe('Text');
  });

  it('ignores raw line breaks in the source, which are not text in RTF', () => {
    expect(rtf('{\\rtf1 one\r\ntwo\\\r\nthree}').text).toBe('onetwo\nthree');
  });

  it('stops at the character budget', () => {
    const result = parseRtf(
      parseContext(new TextEncoder().encode(`{\\rtf1 ${'word '.repeat(1000)}}`), { maxChars: 12 }),
    );
    expect(result).toMatchObject({ text: 'word word wo', truncated: true });
  });

  it('survives unbalanced and truncated input', () => {
    expect(rtf(String.raw`{\rtf1 open {group never closed`).text).toBe('open group never closed');
    expect(rtf(String.raw`{\rtf1 a}}} b`).text).toBe('a b');
    expect(rtf(String.raw`{\rtf1 cut\'`).text).toBe('cut');
    expect(rtf('{\\rtf1 end\\').text).toBe('end');
  });
});
