import { ActionIcon, Anchor, CloseButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconBookmark, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { Bookmark } from '../../../common/api/bookmarks';
import { bookmarks as spec, homeBookmarks as strings } from '../../../common/strings';
import { BookmarkDialog } from './BookmarkDialog';
import { useBookmarkList } from './bookmarks-api';
import { canAddTo, canEditList, moveBookmark, safeHref, showsList, type BookmarkListKind } from './bookmarks';
import classes from './home.module.css';

const TEXT = {
  personal: {
    heading: spec.MY_BOOKMARKS,
    empty: strings.NO_PERSONAL_BOOKMARKS,
    created: spec.PERSONAL_CREATED,
    deleted: spec.PERSONAL_DELETED,
  },
  company: {
    heading: spec.COMPANY_BOOKMARKS,
    empty: strings.NO_COMPANY_BOOKMARKS,
    created: spec.COMPANY_CREATED,
    deleted: spec.COMPANY_DELETED,
  },
} as const;

/**
 * 'My bookmarks' or 'Company bookmarks': links that open in a new tab; whoever manages the list adds (until it is
 * full), deletes, and drags to reorder, each change shown at once and undone if the save fails.
 */
export function BookmarkRow({ kind, admin }: { kind: BookmarkListKind; admin: boolean }) {
  const { bookmarks, save } = useBookmarkList(kind);
  const [adding, setAdding] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const text = TEXT[kind];
  const editable = canEditList(kind, admin);
  if (!showsList(kind, admin, bookmarks)) return null;

  const add = (bookmark: Bookmark) => {
    setAdding(false);
    void save([...bookmarks, bookmark], { success: text.created, failure: spec.CREATE_ERROR });
  };
  const remove = (index: number) =>
    void save(
      bookmarks.filter((_, at) => at !== index),
      { success: text.deleted, failure: spec.DELETE_ERROR },
    );
  const drop = (to: number) => {
    if (dragged === null || dragged === to) return;
    void save(moveBookmark(bookmarks, dragged, to), { failure: spec.REORDER_ERROR });
  };

  return (
    <Stack gap="xs" data-testid={`bookmarks-${kind}`}>
      <Group gap="xs">
        <Text fw={600} size="sm" component="h2" m={0}>
          {text.heading}
        </Text>
        {editable && canAddTo(bookmarks) && (
          <Tooltip label={strings.ADD_BOOKMARK} withinPortal>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={strings.ADD_BOOKMARK}
              onClick={() => setAdding(true)}
              data-testid={`bookmarks-${kind}-add`}
            >
              <IconPlus size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {bookmarks.length === 0 ? (
        <Text size="sm" c="dimmed">
          {text.empty}
        </Text>
      ) : (
        <ul className={classes.bookmarks}>
          {bookmarks.map((bookmark, index) => (
            <li
              key={bookmark.title}
              draggable={editable}
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                setDragged(index);
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(event) => {
                if (dragged !== null) event.preventDefault();
              }}
              onDrop={(event) => {
                event.preventDefault();
                drop(index);
              }}
              data-testid="bookmark"
            >
              <Paper
                withBorder
                radius="md"
                className={classes.bookmark}
                data-editable={editable || undefined}
                data-dragging={dragged === index || undefined}
              >
                <IconBookmark size={14} className={classes.bookmarkIcon} />
                <Anchor
                  href={safeHref(bookmark.link)}
                  target="_blank"
                  rel="noopener noreferrer"
                  draggable={false}
                  size="sm"
                  c="inherit"
                  className={classes.bookmarkTitle}
                  title={bookmark.link}
                >
                  {bookmark.title}
                </Anchor>
                {editable && (
                  <CloseButton
                    size="sm"
                    aria-label={strings.deleteLabel(bookmark.title)}
                    onClick={() => remove(index)}
                    data-testid="bookmark-delete"
                  />
                )}
              </Paper>
            </li>
          ))}
        </ul>
      )}
      {adding && <BookmarkDialog list={bookmarks} onSave={add} onClose={() => setAdding(false)} />}
    </Stack>
  );
}
