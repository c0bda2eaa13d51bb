import { describe, expect, it } from 'vitest';
import { attachmentBlocks } from './attachments';

describe('attachmentBlocks', () => {
  it('names every attachment, then gives the text of each one read under its name', () => {
    expect(
      attachmentBlocks([
        { name: 'review.pdf', text: 'Telemetry arrived.' },
        { name: 'logo.png', text: null },
        { name: 'notes.txt', text: 'Bring snacks.' },
      ]),
    ).toEqual([
      'Attachments: review.pdf, logo.png, notes.txt',
      'Attachment: review.pdf\n\nTelemetry arrived.',
      'Attachment: notes.txt\n\nBring snacks.',
    ]);
  });

  it('adds nothing for a message without attachments', () => {
    expect(attachmentBlocks([])).toEqual([]);
  });
});
