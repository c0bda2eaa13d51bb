import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_UPLOAD_EXTENSIONS,
  ACCEPTED_UPLOAD_MIME_TYPES,
  isAcceptedUpload,
  isZipUpload,
  uploadExtension,
} from './uploads';

describe('uploads', () => {
  it('accepts every type the spec lists, by extension', () => {
    for (const name of [
      'a.docx',
      'a.pdf',
      'a.rtf',
      'a.xlsx',
      'a.xlsm',
      'a.pptx',
      'a.odt',
      'a.ods',
      'a.odp',
      'a.numbers',
      'a.csv',
      'a.html',
      'a.htm',
      'a.txt',
      'a.tsv',
    ]) {
      expect(isAcceptedUpload({ name }), name).toBe(true);
    }
  });

  it('accepts Google Docs, Slides and Sheets by MIME type', () => {
    for (const type of ['document', 'presentation', 'spreadsheet']) {
      expect(isAcceptedUpload({ name: 'Untitled', type: `application/vnd.google-apps.${type}` })).toBe(true);
    }
  });

  it('lets the extension decide, case aside, and compares MIME types without case or parameters', () => {
    expect(isAcceptedUpload({ name: 'REPORT.PDF', type: '' })).toBe(true);
    expect(isAcceptedUpload({ name: 'photo.png', type: 'application/pdf' })).toBe(false);
    expect(isAcceptedUpload({ name: 'noext', type: 'Text/Plain; charset=utf-8' })).toBe(true);
    expect(isAcceptedUpload({ name: 'macro', type: 'application/vnd.ms-excel.sheet.macroenabled.12' })).toBe(
      true,
    );
    expect(isAcceptedUpload({ name: 'noext' })).toBe(false);
  });

  it('refuses the legacy binary Office formats Scout cannot read', () => {
    for (const name of ['a.doc', 'a.xls', 'a.ppt']) expect(isAcceptedUpload({ name }), name).toBe(false);
  });

  it('keeps the zip upload separate', () => {
    expect(isZipUpload({ name: 'Export.ZIP' })).toBe(true);
    expect(isZipUpload({ name: 'archive', type: 'application/x-zip-compressed' })).toBe(true);
    expect(isAcceptedUpload({ name: 'export.zip' })).toBe(false);
    expect(isZipUpload({ name: 'a.docx' })).toBe(false);
  });

  it('lists lower-case extensions with their dot, and no type twice', () => {
    for (const extension of ACCEPTED_UPLOAD_EXTENSIONS) expect(extension).toMatch(/^\.[a-z]+$/);
    expect(new Set(ACCEPTED_UPLOAD_EXTENSIONS).size).toBe(ACCEPTED_UPLOAD_EXTENSIONS.length);
    expect(new Set(ACCEPTED_UPLOAD_MIME_TYPES).size).toBe(ACCEPTED_UPLOAD_MIME_TYPES.length);
    expect(uploadExtension('a/b.c/Plan.Docx')).toBe('.docx');
    expect(uploadExtension('.hidden')).toBe('');
  });
});
