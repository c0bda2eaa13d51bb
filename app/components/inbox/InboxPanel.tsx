import {
  Anchor,
  Avatar,
  Box,
  Button,
  Center,
  Drawer,
  Group,
  Indicator,
  Loader,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconFlask } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import Markdown from 'react-markdown';
import { Link } from 'react-router';
import {
  NOTIFICATION_FILTERS,
  type NotificationFilter,
  type NotificationItem,
} from '../../../common/api/notifications';
import { RELATIVE_TIME_REFRESH_MS } from '../../../common/limits';
import { inbox, inboxCopy, shell } from '../../../common/strings';
import { notifyFailure, notifySuccess } from '../toast';
import {
  markAllNotificationsRead,
  markNotificationRead,
  readHappened,
  useNotificationList,
} from './inbox-api';
import { itemPath } from './items';
import { relativeTime } from './relative-time';

const FILTER_LABELS: Record<NotificationFilter, string> = {
  all: inbox.ALL,
  unread: inbox.UNREAD,
  read: inbox.READ,
};

const EMPTY: Record<NotificationFilter, string> = {
  all: inbox.EMPTY_ALL,
  unread: inbox.EMPTY_UNREAD,
  read: inbox.EMPTY_READ,
};

/** The time now, again every `everyMs`, so relative times move on while the panel stays open (spec §2.9). */
function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** The inbox (spec §2.9): All / Unread / Read, 'Mark all as read' while anything is unread, the items. */
export function InboxPanel({
  opened,
  onClose,
  unreadCount,
}: {
  opened: boolean;
  onClose: () => void;
  unreadCount: number;
}) {
  const [filter, setFilter] = useState<NotificationFilter>('all');
  const queryClient = useQueryClient();
  const [marking, setMarking] = useState(false);

  const markAll = async () => {
    setMarking(true);
    try {
      await markAllNotificationsRead();
      notifySuccess(inbox.MARKED_ALL_AS_READ);
      await readHappened(queryClient);
    } catch {
      notifyFailure(shell.DEFAULT_ERROR);
    } finally {
      setMarking(false);
    }
  };

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="left"
      size={400}
      title={inboxCopy.PANEL_TITLE}
      closeButtonProps={{ 'aria-label': inboxCopy.CLOSE }}
      data-testid="inbox-panel"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <SegmentedControl
            size="xs"
            value={filter}
            onChange={(value) => setFilter(value as NotificationFilter)}
            data={NOTIFICATION_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }))}
            data-testid="inbox-filter"
          />
          {unreadCount > 0 && (
            <Button
              size="xs"
              variant="subtle"
              loading={marking}
              onClick={() => void markAll()}
              data-testid="inbox-mark-all"
            >
              {inbox.MARK_ALL_AS_READ}
            </Button>
          )}
        </Group>
        {opened && <NotificationList filter={filter} onOpenItem={onClose} />}
      </Stack>
    </Drawer>
  );
}

function NotificationList({ filter, onOpenItem }: { filter: NotificationFilter; onOpenItem: () => void }) {
  const list = useNotificationList(filter);
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  if (list.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  if (list.isError) {
    return (
      <Text c="red" size="sm" py="md">
        {shell.DEFAULT_ERROR}
      </Text>
    );
  }
  if (items.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="xl" data-testid="inbox-empty">
        {EMPTY[filter]}
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="inbox-items">
      {items.map((item) => (
        <InboxItem key={item.id} item={item} now={now} onOpen={onOpenItem} />
      ))}
      {list.hasNextPage && (
        <Button
          variant="subtle"
          size="xs"
          loading={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {inboxCopy.LOAD_MORE}
        </Button>
      )}
    </Stack>
  );
}

function InboxItem({ item, now, onOpen }: { item: NotificationItem; now: Date; onOpen: () => void }) {
  const queryClient = useQueryClient();
  const actor = item.actors[0];
  const open = () => {
    onOpen();
    if (item.read) return;
    markNotificationRead(item.id)
      .then(() => readHappened(queryClient))
      .catch((error: unknown) => console.warn('marking the notification read failed', error));
  };
  return (
    <Anchor
      component={Link}
      to={itemPath(item)}
      onClick={open}
      c="inherit"
      underline="never"
      data-testid="inbox-item"
      data-read={String(item.read)}
    >
      <Group
        gap="sm"
        wrap="nowrap"
        align="flex-start"
        p="xs"
        style={{
          borderRadius: 'var(--mantine-radius-md)',
          background: item.read ? undefined : 'var(--mantine-color-indigo-light)',
        }}
      >
        <Indicator disabled={item.read} color="red" size={8} offset={3}>
          {actor ? (
            <Avatar src={actor.avatar} name={actor.name} color="initials" radius="xl" size="sm" />
          ) : (
            <Avatar radius="xl" size="sm" color="indigo">
              <IconFlask size={16} />
            </Avatar>
          )}
        </Indicator>
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" component="div">
            {/* react-markdown renders no raw HTML, and only the bold of the sentence is kept */}
            <Markdown skipHtml allowedElements={['strong']} unwrapDisallowed>
              {item.markdown}
            </Markdown>
          </Text>
          {item.data.message_slice && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {item.data.message_slice}
            </Text>
          )}
          <Text size="xs" c="dimmed" data-testid="inbox-item-time">
            {relativeTime(item.inserted_at, now)}
          </Text>
        </Box>
      </Group>
    </Anchor>
  );
}
