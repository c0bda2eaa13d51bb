import type { Reference } from '../../common/api/messages';

/** One retrieved source of an answer: a document the asker can read, or a web page. */
export type Passage = {
  /** The document id, or a web page's URL hash. */
  id: string;
  title: string;
  url: string | null;
  /** An app shortname, 'files', 'verified_answers' or 'web'. */
  source: string;
  /** A short extract for the references list. */
  snippet: string;
  /** The longer text the model reads. */
  text: string;
  authorEmail: string | null;
  authorName: string | null;
  modifiedTime: Date | null;
  objectType: string | null;
  score: number | null;
};

export function referenceOf(passage: Passage): Reference {
  return {
    id: passage.id,
    url: passage.url,
    title: passage.title || passage.url || 'Untitled',
    source: passage.source,
    snippet: passage.snippet,
    author: { email: passage.authorEmail, name: passage.authorName, photo: null },
    modified_time: passage.modifiedTime ? passage.modifiedTime.toISOString() : null,
    object_type: passage.objectType,
    extra_fields: { icon_url: null },
  };
}
