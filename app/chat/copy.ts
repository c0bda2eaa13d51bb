// What the copy button puts on the clipboard (spec asking-questions §8: 'Copied text to clipboard', 'Copied text
// and references to clipboard'): the answer's text, then its references numbered as the answer cites them.
import type { Reference } from '../../common/api/messages';
import { chatCopy } from '../strings';

export function answerClipboardText(
  text: string,
  references: readonly Pick<Reference, 'title' | 'url'>[],
): { text: string; withReferences: boolean } {
  if (references.length === 0) return { text, withReferences: false };
  const lines = references.map(
    (reference, index) => `[${index + 1}] ${reference.title}${reference.url ? ` - ${reference.url}` : ''}`,
  );
  return { text: `${text}\n\n${chatCopy.REFERENCES}:\n${lines.join('\n')}`, withReferences: true };
}
