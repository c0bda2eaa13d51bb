import { bookmarkSchema, type Bookmark } from '../../common/api/bookmarks';

/**
 * A stored list as the homepage shows it. Rows written before the link rules (or by hand) that break them are left
 * out rather than served: a `javascript:` link must never reach an href.
 */
export function presentBookmarks(stored: readonly unknown[] | null): Bookmark[] {
  return (stored ?? []).flatMap((row) => {
    const parsed = bookmarkSchema.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
}
