// Homepage bookmarks (spec shell-and-account §2.7, §3 Bookmark, §5): 'My bookmarks' are the user's homepageLinks,
// 'Company bookmarks' the org's. Each PATCH sends the whole ordered list, so order, adds and deletes are one call.
import { z } from 'zod';
import { BOOKMARKS_PER_LIST_MAX, BOOKMARK_LINK_MAX_CHARS, BOOKMARK_TITLE_MAX_CHARS } from '../limits';
import { homeBookmarks as homeStrings, validation } from '../strings';

/** The {host} of 'Invalid URL, must be of format {host}': what a valid link looks like. */
export const BOOKMARK_LINK_FORMAT = 'https://example.com';

/** http or https with a real host name only: a stored `javascript:` or `data:` link can never run on the homepage. */
export const bookmarkLinkSchema = z
  .string()
  .trim()
  .max(BOOKMARK_LINK_MAX_CHARS, homeStrings.linkTooLong(BOOKMARK_LINK_MAX_CHARS))
  .pipe(
    z.url({
      protocol: /^https?$/,
      hostname: z.regexes.hostname,
      error: validation.invalidUrl(BOOKMARK_LINK_FORMAT),
    }),
  );

export const bookmarkTitleSchema = z
  .string()
  .trim()
  .min(1, homeStrings.TITLE_REQUIRED)
  .max(BOOKMARK_TITLE_MAX_CHARS, homeStrings.titleTooLong(BOOKMARK_TITLE_MAX_CHARS));

export const bookmarkSchema = z.object({ title: bookmarkTitleSchema, link: bookmarkLinkSchema }).strict();
export type Bookmark = z.infer<typeof bookmarkSchema>;

/** Titles are told apart as a person reads them: case and surrounding spaces do not make a new title. */
export const bookmarkTitleKey = (title: string) => title.trim().toLocaleLowerCase();

/** One ordered list: at most 8, no two with the same title. */
export const bookmarkListSchema = z
  .array(bookmarkSchema)
  .max(BOOKMARKS_PER_LIST_MAX, homeStrings.tooManyBookmarks(BOOKMARKS_PER_LIST_MAX))
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((bookmark, index) => {
      const key = bookmarkTitleKey(bookmark.title);
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: [index, 'title'],
          message: validation.DUPLICATE_BOOKMARK_TITLE,
        });
      seen.add(key);
    });
  });

/** `PATCH /users/{id}/bookmarks` and `PATCH /orgs/bookmarks` (admins): the whole list, in its new order. */
export const bookmarksUpdateRequestSchema = z.object({ bookmarks: bookmarkListSchema }).strict();
export type BookmarksUpdateRequest = z.infer<typeof bookmarksUpdateRequestSchema>;

/** Both PATCHes answer the list as stored. */
export const bookmarksResponseSchema = z.object({ bookmarks: z.array(bookmarkSchema) });
export type BookmarksResponse = z.infer<typeof bookmarksResponseSchema>;
