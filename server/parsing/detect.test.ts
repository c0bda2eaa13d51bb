import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_UPLOAD_EXTENSIONS, ACCEPTED_UPLOAD_MIME_TYPES } from '../../common/uploads';
import { KIND_OF_EXTENSION, KIND_OF_MIME_TYPE, detectFileKind, extensionOf } from './detect';

const detect = (fileName: string, bytes: Uint8Array, mimeType?: string) =>
  detectFileKind({ fileName, bytes, ...(mimeType ? { mimeType } : {}), maxArchiveEntries: 100 });
const text = (value: string) => strToU8(value);

describe('detectFileKind', () => {
  it('has a parser for every type the app lets users upload', () => {
    for (const extension of ACCEPTED_UPLOAD_EXTENSIONS) {
      expect(KIND_OF_EXTENSION[extension.slice(1)], extension).toBeDefined();
    }
    for (const mimeType of ACCEPTED_UPLOAD_MIME_TYPES) {
      expect(KIND_OF_MIME_TYPE[mimeType.toLowerCase()], mimeType).toBeDefined();
    }
  });

  it('chooses between the text formats by name, then by MIME type, then by content', () => {
    expect(detect('a.csv', text('a,b'))).toEqual({ kind: 'csv' });
    expect(detect('a.TSV', text('a\tb'))).toEqual({ kind: 'tsv' });
    expect(detect('page', text('<p>x</p>'), 'text/html; charset=utf-8')).toEqual({ kind: 'html' });
    expect(detect('page', text('  <!DOCTYPE html><p>x</p>'))).toEqual({ kind: 'html' });
    expect(detect('notes.md', text('# Notes'))).toEqual({ kind: 'text' });
    expect(detect('data.json', text('{"a":1}'))).toEqual({ kind: 'text', unknownText: true });
    expect(detect('export.xls', text('Name\tTeam\nAda\tCore'))).toEqual({ kind: 'csv' });
    expect(detect('letter.doc', text('{\\rtf1 Hello}'))).toEqual({ kind: 'rtf' });
  });

  it('identifies ZIP-based formats by what they contain', () => {
    const ooxml = (part: string) =>
      zipSync({ '[Content_Types].xml': text('<Types/>'), [part]: text('<x/>') });
    expect(detect('x', ooxml('word/document.xml')).kind).toBe('docx');
    expect(detect('x', ooxml('ppt/presentation.xml')).kind).toBe('pptx');
    expect(detect('x.zip', ooxml('xl/workbook.xml')).kind).toBe('xlsx');
    const odf = (type: string) =>
      zipSync({ mimetype: [text(type), { level: 0 }], 'content.xml': text('<x/>') });
    expect(detect('x', odf('application/vnd.oasis.opendocument.spreadsheet')).kind).toBe('ods');
    expect(detect('x', odf('application/vnd.oasis.opendocument.presentation')).kind).toBe('odp');
    expect(detect('x', odf('application/vnd.oasis.opendocument.text')).kind).toBe('odt');
    const iwork = (...names: string[]) => zipSync(Object.fromEntries(names.map((name) => [name, text('x')])));
    expect(detect('x', iwork('Index/Document.iwa', 'Index/Tables/DataList.iwa')).kind).toBe('numbers');
  });

  it('names the ZIP-based formats it cannot read', () => {
    const iwork = zipSync({ 'Index/Document.iwa': text('x') });
    expect(() => detect('letter.pages', iwork)).toThrow('Apple Pages files are not supported.');
    expect(() => detect('talk.key', iwork)).toThrow('Apple Keynote files are not supported.');
    expect(() => detect('old.numbers', zipSync({ 'index.xml.gz': text('x') }))).toThrow(/iWork ’09/);
    const xlsb = zipSync({ '[Content_Types].xml': text('<Types/>'), 'xl/workbook.bin': text('x') });
    expect(() => detect('book.xlsx', xlsb)).toThrow('Excel binary (.xlsb) files are not supported.');
    const epub = zipSync({ mimetype: [text('application/epub+zip'), { level: 0 }] });
    expect(() => detect('book.epub', epub)).toThrow('EPUB books are not supported.');
  });

  it('tells an encrypted Office file from a legacy one', () => {
    const ole2 = new Uint8Array(1024);
    ole2.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    ole2.set(new Uint8Array(Buffer.from('EncryptedPackage', 'utf16le')), 600);
    expect(() => detect('secret.docx', ole2)).toThrow('Password-protected Office files cannot be read.');
    const ppt = new Uint8Array(1024);
    ppt.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    ppt.set(new Uint8Array(Buffer.from('PowerPoint Document', 'utf16le')), 600);
    expect(() => detect('deck', ppt)).toThrow(/PowerPoint 97–2003 \(\.ppt\)/);
  });

  it('names common binary files and refuses text-less bytes', () => {
    expect(() => detect('x.pdf', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toThrow(
      'JPEG image files are not supported.',
    );
    expect(() => detect('x', Uint8Array.from([0x1f, 0x8b, 8, 0]))).toThrow(
      'GZIP archive files are not supported.',
    );
    expect(() => detect('blob', Uint8Array.from([1, 2, 3, 0, 5]))).toThrow('These files are not supported.');
  });
});

describe('extensionOf', () => {
  it('takes the last extension of the base name, lower-cased', () => {
    expect(extensionOf('dir.v2/Report.Final.PDF')).toBe('pdf');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('README')).toBe('');
  });
});
