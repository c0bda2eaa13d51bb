import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_FILES } from '../../common/limits';
import { files as fileStrings, validation } from '../../common/strings';
import {
  attachmentsRefusal,
  attachRefusal,
  detach,
  NO_ATTACHMENTS,
  uploaded,
  uploadFailureText,
  uploading,
} from './attachments';

const txt = (name: string) => ({ name, type: 'text/plain', size: 10 });

describe('attachments', () => {
  it('goes idle, in transit, then done once a file is stored, or back to idle', () => {
    const transit = uploading(NO_ATTACHMENTS);
    expect(transit.status).toBe('transit');
    expect(uploaded(transit, [{ id: 'f1', name: 'a.txt' }])).toEqual({
      status: 'done',
      files: [{ id: 'f1', name: 'a.txt' }],
    });
    expect(uploaded(transit, [])).toEqual(NO_ATTACHMENTS);
    const done = uploaded(uploading(uploaded(transit, [{ id: 'f1', name: 'a.txt' }])), []);
    expect(done.status).toBe('done');
    expect(detach(done, 'f1')).toEqual(NO_ATTACHMENTS);
  });

  it('refuses more files while one uploads, too many, and unsupported types', () => {
    expect(attachRefusal(uploading(NO_ATTACHMENTS), [txt('a.txt')])).toBe(validation.WAIT_FOR_CURRENT_UPLOAD);
    const many = Array.from({ length: UPLOAD_MAX_FILES + 1 }, (_, index) => txt(`${index}.txt`));
    expect(attachRefusal(NO_ATTACHMENTS, many)).toBe(validation.tooManyFiles(UPLOAD_MAX_FILES));
    expect(attachRefusal(NO_ATTACHMENTS, [txt('run.exe')])).toBe(validation.unsupportedFileTypes(['.exe']));
    expect(attachRefusal(NO_ATTACHMENTS, [txt('notes.txt')])).toBeNull();
  });

  it('refuses sending during an upload, and Research with files', () => {
    expect(attachmentsRefusal(uploading(NO_ATTACHMENTS), false)).toBe(validation.WAIT_FOR_FILE_UPLOAD);
    const done = uploaded(NO_ATTACHMENTS, [{ id: 'f1', name: 'a.txt' }]);
    expect(attachmentsRefusal(done, true)).toBe(validation.RESEARCH_NO_ATTACHED_FILES);
    expect(attachmentsRefusal(done, false)).toBeNull();
    expect(attachmentsRefusal(NO_ATTACHMENTS, true)).toBeNull();
  });

  it('names an empty file, and says the generic failure otherwise', () => {
    expect(uploadFailureText(fileStrings.NO_CONTENT_PARSED, 'empty.txt')).toBe(
      fileStrings.emptyDocument('empty.txt'),
    );
    expect(uploadFailureText('HTTP 500', 'a.txt')).toBe(fileStrings.UPLOAD_ERROR);
  });
});
