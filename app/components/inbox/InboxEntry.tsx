import { Badge, NavLink } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconInbox } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { matchPath, useLocation, useSearchParams } from 'react-router';
import type { NotificationItem } from '../../../common/api/notifications';
import { shell } from '../../../common/strings';
import { isFlagOn, useSignedInUser } from '../../auth/session';
import { isInFrame } from '../../frame';
import { onReadElsewhere } from './cross-tab';
import { showDesktopNotification } from './desktop';
import { inboxKeys, markTopicNotificationsRead, readHappened, useUnreadNotifications } from './inbox-api';
import { InboxPanel } from './InboxPanel';
import { showUnreadInTab } from './tab-badge';
import classes from '../shell.module.css';

/** The query parameter that opens the inbox (spec §2.8). */
export const OPEN_INBOX_PARAM = 'open_inbox';

/** The sidebar footer's Inbox (spec §2.8): only with the notifications and multiplayer flags (the server agrees). */
export function InboxEntry() {
  const user = useSignedInUser();
  if (!isFlagOn(user, 'notifications') || !isFlagOn(user, 'multiplayerEnabled')) return null;
  return <Inbox />;
}

function Inbox() {
  const [params, setParams] = useSearchParams();
  const [clicked, setClicked] = useState(false);
  const unread = useUnreadNotifications(true);
  const count = unread.data?.meta.unread_count ?? 0;
  useUnreadSignals(count, unread.data?.items);

  // ?open_inbox opens the panel (spec §2.8); closing it drops the parameter, so a reload does not reopen it
  const opened = clicked || params.has(OPEN_INBOX_PARAM);
  const close = () => {
    setClicked(false);
    if (!params.has(OPEN_INBOX_PARAM)) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(OPEN_INBOX_PARAM);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <>
      <NavLink
        component="button"
        label={shell.INBOX}
        leftSection={<IconInbox size={18} />}
        rightSection={
          count > 0 && (
            <Badge size="sm" color="red" circle={count <= 9} data-testid="inbox-badge">
              {shell.unreadCount(count)}
            </Badge>
          )
        }
        onClick={() => setClicked(true)}
        data-testid="sidebar-inbox"
        className={classes.navItem}
      />
      <InboxPanel opened={opened} onClose={close} unreadCount={count} />
    </>
  );
}

/**
 * What the unread notifications do outside the panel (spec §4.7): the tab title and favicon, the count for a
 * parent window, reads in other tabs, desktop notifications for new ones, and reading those of the open topic.
 */
function useUnreadSignals(count: number, items: readonly NotificationItem[] | undefined) {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const openTopicId = matchPath('/topic/:id/*', pathname)?.params.id ?? null;
  // ids seen so far; null until the first answer, whose items are old news rather than new notifications
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    showUnreadInTab(count);
    // only Scout itself and the browser extension may frame the app (server/http/spa.ts), so any parent may know
    if (isInFrame()) window.parent.postMessage({ type: 'SCOUT_UNREAD_COUNT', count }, '*');
  }, [count]);
  useEffect(() => () => showUnreadInTab(0), []);

  useEffect(
    () => onReadElsewhere(() => void queryClient.invalidateQueries({ queryKey: inboxKeys.all })),
    [queryClient],
  );

  useEffect(() => {
    if (!items) return;
    const fresh = seen.current ? items.filter((item) => !seen.current?.has(item.id)) : [];
    seen.current = new Set([...(seen.current ?? []), ...items.map((item) => item.id)]);
    for (const item of fresh) {
      if (item.data.topic_id !== openTopicId) showDesktopNotification(item);
    }
  }, [items, openTopicId]);

  // Viewing a topic reads its notifications, those that arrive while it is open included.
  const openTopicUnread = Boolean(openTopicId && items?.some((item) => item.data.topic_id === openTopicId));
  useEffect(() => {
    if (!openTopicId || !openTopicUnread) return;
    markTopicNotificationsRead(openTopicId)
      .then(() => readHappened(queryClient))
      .catch((error: unknown) => console.warn('marking the topic notifications read failed', error));
  }, [openTopicId, openTopicUnread, queryClient]);
}
