import type { SearchHit as ApiSearchHit } from '../../common/api/search';
import type { SearchHit } from '../search';

/**
 * One result of `_search` (spec shell-and-account §3 Search result). The snippet stays plain text; highlights are
 * offsets into it, so the app renders them as elements and no markup ever travels.
 */
export function presentSearchHit(hit: SearchHit, pinned: boolean): ApiSearchHit {
  const base = hit.offsets.start;
  return {
    source: hit.source,
    objectID: hit.documentId,
    name: hit.title,
    owners: hit.author || hit.authorEmail ? [{ name: hit.author, email: hit.authorEmail }] : [],
    file_path: hit.sectionPath,
    webview_link: hit.url,
    deep_link: hit.url,
    content: hit.snippet,
    highlights: hit.highlights
      .map((span) => ({ start: span.start - base, end: span.end - base }))
      .filter((span) => span.start >= 0 && span.end <= hit.snippet.length && span.start < span.end),
    metadata: {
      object_type: hit.objectType ? hit.objectType.toLowerCase() : null,
      file_type: hit.fileType,
      modified_time: hit.modifiedTime?.toISOString() ?? null,
      created_time: hit.createdTime?.toISOString() ?? null,
      author: hit.author ?? hit.authorEmail,
    },
    pins: pinned,
    missing_terms: hit.missingTerms,
  };
}
