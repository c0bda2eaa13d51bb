// RTF to text. RTF is 7-bit text of groups ({…}), control words (\par, \u8364) and control symbols (\', \{);
// the visible text is what remains once destinations that hold no body text (font and colour tables, styles,
// document info, pictures, embedded objects, and every \* destination a reader does not know) are skipped.
// Bytes above 127, and \'hh escapes, are in the code page the header or the current font's charset names;
// \uN escapes are UTF-16 code units followed by \ucN fallback characters that a Unicode reader skips.
import { TextBudget, type FormatResult, type ParseContext } from './limits';
import { decodeWindows1252 } from './text';

/** Destinations whose content is never body text. */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'objdata',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'listtable',
  'listoverridetable',
  'revtbl',
  'rsidtbl',
  'filetbl',
  'generator',
  'xmlnstbl',
  'mmathPr',
  'fldinst',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'annotation',
  'atnid',
  'atnauthor',
  'shp',
  'shpinst',
  'nonshppict',
  'pgdsctbl',
  'userprops',
  'docvar',
  'template',
  'bkmkstart',
  'bkmkend',
  'private',
  'pntxta',
  'pntxtb',
]);

/** Control words that stand for a character. */
const CHARACTER_WORDS: Readonly<Record<string, string>> = {
  par: '\n',
  line: '\n',
  sect: '\n\n',
  page: '\n\n',
  tab: '\t',
  cell: '\t',
  nestcell: '\t',
  row: '\n',
  nestrow: '\n',
  emdash: '\u2014',
  endash: '\u2013',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
};

/** Font charsets (\fcharsetN) to the code pages their bytes are in. */
const CHARSET_CODE_PAGES: Readonly<Record<number, number>> = {
  0: 1252,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};

const CODE_PAGE_LABELS: Readonly<Record<number, string>> = {
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  10000: 'macintosh',
  65001: 'utf-8',
};

const MAX_DEPTH = 10_000;
const BYTES_PER_CHECK = 1 << 20;

interface GroupState {
  /** Inside a destination whose text is not body text. */
  skip: boolean;
  /** Fallback characters after each \uN (\ucN). */
  unicodeSkip: number;
  /** The current font (\fN), whose charset decodes 8-bit text. */
  font: number;
  /** Inside the font table: \fN and \fcharsetN define fonts there. */
  inFontTable: boolean;
  /** Inside the document info's \title: its text is the title. */
  inTitle: boolean;
}

export function parseRtf(context: ParseContext): FormatResult {
  const { bytes, signal } = context;
  const budget = new TextBudget(context.limits.maxChars);
  const fontCodePages = new Map<number, number>();
  let defaultCodePage = 1252;
  let title = '';

  let state: GroupState = { skip: false, unicodeSkip: 1, font: -1, inFontTable: false, inTitle: false };
  const stack: GroupState[] = [];
  /** The next control word opens a destination: it is the first in its group, or follows a leading \*. */
  let atGroupStart = false;
  let starred = false;
  /** Characters still to skip after a \uN. */
  let pendingSkip = 0;
  /** 8-bit bytes waiting to be decoded together (double-byte code pages need pairs). */
  let pendingBytes: number[] = [];
  /** The font being defined inside the font table. */
  let definingFont = -1;

  const codePage = () => fontCodePages.get(state.font) ?? defaultCodePage;
  const emit = (text: string) => {
    if (state.inTitle) title += text;
    else if (!state.skip) budget.push(text);
  };
  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    const decoded = decodeCodePage(Uint8Array.from(pendingBytes), codePage());
    pendingBytes = [];
    emit(decoded);
  };
  /** True when this character is a \uN fallback and must be dropped. */
  const isFallback = () => {
    if (pendingSkip === 0) return false;
    pendingSkip--;
    return true;
  };

  let i = 0;
  let nextCheck = BYTES_PER_CHECK;
  while (i < bytes.length && !budget.full) {
    if (i >= nextCheck) {
      signal.throwIfAborted();
      nextCheck += BYTES_PER_CHECK;
    }
    const byte = bytes[i]!;
    if (byte === 0x7b /* { */) {
      flushBytes();
      if (stack.length >= MAX_DEPTH) break;
      stack.push(state);
      state = { ...state };
      atGroupStart = true;
      starred = false;
      pendingSkip = 0;
      i++;
      continue;
    }
    if (byte === 0x7d /* } */) {
      flushBytes();
      state = stack.pop() ?? state;
      atGroupStart = false;
      starred = false;
      pendingSkip = 0;
      i++;
      continue;
    }
    if (byte === 0x5c /* \ */) {
      const next = bytes[i + 1];
      if (next === undefined) break;
      if (isLetter(next)) {
        // a control word: letters, an optional signed number, and one optional space that belongs to it
        let end = i + 1;
        while (end < bytes.length && end - i <= 32 && isLetter(bytes[end]!)) end++;
        const word = String.fromCharCode(...bytes.subarray(i + 1, end));
        let digitsEnd = bytes[end] === 0x2d /* - */ ? end + 1 : end;
        const digitsStart = digitsEnd;
        while (digitsEnd < bytes.length && digitsEnd - digitsStart < 10 && isDigit(bytes[digitsEnd]!))
          digitsEnd++;
        const hasParameter = digitsEnd > digitsStart;
        const parameter = hasParameter
          ? Number.parseInt(String.fromCharCode(...bytes.subarray(end, digitsEnd)), 10)
          : 0;
        i = hasParameter ? digitsEnd : end;
        if (bytes[i] === 0x20) i++;

        const opensDestination = atGroupStart;
        const unknownDestination = starred;
        atGroupStart = false;
        starred = false;
        if (word === 'bin') {
          // `parameter` bytes of binary data follow; never text
          flushBytes();
          i += Math.max(0, parameter);
          continue;
        }
        if (opensDestination) {
          if (word === 'fonttbl') {
            state.inFontTable = true;
            state.skip = true;
            continue;
          }
          if (word === 'title' && stack.some((group) => group.skip)) {
            state.inTitle = true;
            continue;
          }
          if (unknownDestination || SKIPPED_DESTINATIONS.has(word)) {
            flushBytes();
            state.skip = true;
            continue;
          }
        }
        if (state.inFontTable) {
          if (word === 'f') definingFont = parameter;
          else if (word === 'fcharset' && CHARSET_CODE_PAGES[parameter] !== undefined) {
            fontCodePages.set(definingFont, CHARSET_CODE_PAGES[parameter]!);
          } else if (word === 'cpg') fontCodePages.set(definingFont, parameter);
          continue;
        }
        switch (word) {
          case 'ansicpg':
            defaultCodePage = parameter;
            continue;
          case 'mac':
            defaultCodePage = 10000;
            continue;
          case 'f':
            flushBytes();
            state.font = parameter;
            continue;
          case 'uc':
            state.unicodeSkip = Math.max(0, parameter);
            continue;
          case 'u':
            flushBytes();
            // a UTF-16 code unit, signed; surrogate pairs arrive as two \u and join in the string
            emit(String.fromCharCode(parameter < 0 ? parameter + 0x10000 : parameter));
            pendingSkip = state.unicodeSkip;
            continue;
        }
        const character = CHARACTER_WORDS[word];
        if (character !== undefined) {
          flushBytes();
          if (!isFallback()) emit(character);
        }
        continue;
      }

      // a control symbol: backslash and one character
      i += 2;
      if (next === 0x2a /* * */) {
        starred = atGroupStart;
        continue;
      }
      atGroupStart = false;
      if (next === 0x27 /* ' */) {
        const value = Number.parseInt(String.fromCharCode(bytes[i] ?? 0, bytes[i + 1] ?? 0), 16);
        i += 2;
        if (Number.isNaN(value) || isFallback()) continue;
        pendingBytes.push(value);
        continue;
      }
      flushBytes();
      if (isFallback()) continue;
      switch (next) {
        case 0x5c:
        case 0x7b:
        case 0x7d:
          emit(String.fromCharCode(next));
          break;
        case 0x7e /* ~ non-breaking space */:
          emit(' ');
          break;
        case 0x5f /* _ non-breaking hyphen */:
          emit('-');
          break;
        case 0x0a:
        case 0x0d:
          emit('\n');
          break;
        // \- (optional hyphen), \: (index subentry) and anything unknown stand for nothing
      }
      continue;
    }
    if (byte === 0x0a || byte === 0x0d) {
      i++;
      continue;
    }
    // plain text up to the next byte that means something
    atGroupStart = false;
    let end = i;
    while (end < bytes.length) {
      const b = bytes[end]!;
      if (b === 0x7b || b === 0x7d || b === 0x5c || b === 0x0a || b === 0x0d) break;
      end++;
    }
    if (state.skip && !state.inTitle) {
      pendingSkip = Math.max(0, pendingSkip - (end - i));
    } else {
      let run = '';
      for (let at = i; at < end; at++) {
        if (isFallback()) continue;
        const b = bytes[at]!;
        if (b >= 0x80) {
          if (run) emit(run);
          run = '';
          pendingBytes.push(b);
        } else {
          flushBytes();
          run += String.fromCharCode(b);
        }
      }
      if (run) emit(run);
    }
    i = end;
  }
  flushBytes();
  return { title: title.replace(/\s+/g, ' ').trim(), text: budget.toString(), truncated: budget.full };
}

function isLetter(byte: number): boolean {
  return (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a);
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

const decoders = new Map<number, TextDecoder>();

function decodeCodePage(bytes: Uint8Array, codePage: number): string {
  if (codePage === 1252) return decodeWindows1252(bytes);
  let decoder = decoders.get(codePage);
  if (!decoder) {
    try {
      decoder = new TextDecoder(CODE_PAGE_LABELS[codePage] ?? `windows-${codePage}`);
    } catch {
      return decodeWindows1252(bytes);
    }
    decoders.set(codePage, decoder);
  }
  return decoder.decode(bytes);
}
