// What makes a title: the document's own, not one its writing software filled in.

/**
 * Titles software fills in for you: a browser printing a page without a title ("about:blank", its address), an
 * editor's defaults ("Untitled", "Document1", "Microsoft Word - report.docx"), a bare file name.
 */
const PLACEHOLDER_TITLE =
  /^(untitled( document)?|document\d*|slide \d+|microsoft (word|powerpoint|excel) - .*|about:\S*|(https?|file|data|blob):\S*|\S+\.(pdf|docx?|pptx?|xlsx?|od[tsp]|rtf|txt|html?|md))$/i;

export function isPlaceholderTitle(title: string): boolean {
  return PLACEHOLDER_TITLE.test(title.trim());
}

/** A level-one heading ('# Title') the text opens with: the title its author put on top. */
export function openingHeading(text: string): string | undefined {
  const first = text.split('\n', 1)[0] ?? '';
  return /^# +(.+?)[ #]*$/.exec(first)?.[1]?.trim() || undefined;
}
