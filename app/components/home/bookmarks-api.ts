import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { bookmarksResponseSchema, type Bookmark } from '../../../common/api/bookmarks';
import type { OrgView } from '../../../common/api/orgs';
import type { CurrentUser } from '../../../common/api/session';
import { apiRequest } from '../../api/client';
import { orgQueryKey, useOrg } from '../../api/org';
import { currentUserQueryKey, useSignedInUser, useTokens } from '../../auth/session';
import { notifyFailure, notifySuccess } from '../toast';
import type { BookmarkListKind } from './bookmarks';

export type BookmarkList = {
  bookmarks: readonly Bookmark[];
  /** Shows `next` at once and saves it; on failure the list goes back to what it was and `failure` is shown. */
  save(next: readonly Bookmark[], messages: { success?: string; failure: string }): Promise<void>;
};

/**
 * One homepage bookmark list, read with the user (personal) or the org (company) and saved whole. The list shown
 * lives in those queries' caches, so the save's answer and a later refetch agree.
 */
export function useBookmarkList(kind: BookmarkListKind): BookmarkList {
  const user = useSignedInUser();
  const org = useOrg();
  const username = useTokens()?.username;
  const queryClient = useQueryClient();
  // Saves go one after another: a rollback must not undo a later change that succeeded.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const bookmarks = kind === 'personal' ? user.homepageLinks : (org.data?.homepageLinks ?? []);

  const show = (list: readonly Bookmark[]) => {
    if (kind === 'personal')
      queryClient.setQueryData<CurrentUser>(currentUserQueryKey(username), (current) =>
        current ? { ...current, homepageLinks: [...list] } : current,
      );
    else
      queryClient.setQueryData<OrgView>(orgQueryKey(username), (current) =>
        current ? { ...current, homepageLinks: [...list] } : current,
      );
  };

  const save: BookmarkList['save'] = (next, messages) => {
    const before = bookmarks;
    show(next);
    const run = queue.current.then(async () => {
      try {
        const saved = await apiRequest(
          kind === 'personal' ? `users/${encodeURIComponent(user.userId)}/bookmarks` : 'orgs/bookmarks',
          { method: 'PATCH', body: { bookmarks: next }, schema: bookmarksResponseSchema },
        );
        show(saved.bookmarks);
        if (messages.success) notifySuccess(messages.success);
      } catch {
        show(before);
        notifyFailure(messages.failure);
      }
    });
    queue.current = run;
    return run;
  };

  return { bookmarks, save };
}
