// The homepage bookmark rows' rules (spec shell-and-account §2.7, §5), kept apart from React so they are tested as
// they are: what the dialog says about a draft, how a drag reorders a list, which lists a viewer sees and edits.
import {
  bookmarkLinkSchema,
  bookmarkTitleKey,
  bookmarkTitleSchema,
  type Bookmark,
} from '../../../common/api/bookmarks';
import { BOOKMARKS_PER_LIST_MAX } from '../../../common/limits';
import { validation } from '../../../common/strings';

export type BookmarkListKind = 'personal' | 'company';

export type DraftCheck = { titleError: string | null; linkError: string | null; valid: boolean };

/**
 * A field's error shows once something is typed in it (an empty field is not yet wrong); Save needs both valid and
 * a title no other bookmark of the list has.
 */
export function checkDraft(draft: Bookmark, list: readonly Bookmark[]): DraftCheck {
  const title = bookmarkTitleSchema.safeParse(draft.title);
  const link = bookmarkLinkSchema.safeParse(draft.link);
  const duplicate = list.some(
    (bookmark) => bookmarkTitleKey(bookmark.title) === bookmarkTitleKey(draft.title),
  );
  const titleError =
    draft.title === ''
      ? null
      : !title.success
        ? (title.error.issues[0]?.message ?? null)
        : duplicate
          ? validation.DUPLICATE_BOOKMARK_TITLE
          : null;
  const linkError = draft.link === '' || link.success ? null : (link.error.issues[0]?.message ?? null);
  return { titleError, linkError, valid: title.success && link.success && !duplicate };
}

/** The list with the bookmark at `from` dropped at `to` (the others keep their order). */
export function moveBookmark(list: readonly Bookmark[], from: number, to: number): Bookmark[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  if (!moved) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}

/** Who manages a list: a member their own, only admins the company's (the server refuses anyone else). */
export function canEditList(kind: BookmarkListKind, admin: boolean): boolean {
  return kind === 'personal' || admin;
}

/** The company row is hidden from members while it is empty: there is nothing for them to see or do there. */
export function showsList(kind: BookmarkListKind, admin: boolean, list: readonly Bookmark[]): boolean {
  return canEditList(kind, admin) || list.length > 0;
}

/** The add button goes once the list is full. */
export function canAddTo(list: readonly Bookmark[]): boolean {
  return list.length < BOOKMARKS_PER_LIST_MAX;
}

/** An href only for an http(s) link: a stored link is checked again where it becomes clickable. */
export function safeHref(link: string): string | undefined {
  return bookmarkLinkSchema.safeParse(link).success ? link : undefined;
}
