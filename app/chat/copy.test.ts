import { describe, expect, it } from 'vitest';
import { answerClipboardText } from './copy';

describe('copying an answer', () => {
  it('copies the text alone when there are no references', () => {
    expect(answerClipboardText('Sixteen weeks.', [])).toEqual({
      text: 'Sixteen weeks.',
      withReferences: false,
    });
  });

  it('adds the references numbered as cited, with their links', () => {
    const copied = answerClipboardText('Sixteen weeks [1]. Not on holidays [2].', [
      { title: 'Leave policy', url: 'https://notion.example/leave' },
      { title: 'Holidays', url: null },
    ]);
    expect(copied.withReferences).toBe(true);
    expect(copied.text).toBe(
      'Sixteen weeks [1]. Not on holidays [2].\n\nReferences:\n[1] Leave policy - https://notion.example/leave\n[2] Holidays',
    );
  });
});
