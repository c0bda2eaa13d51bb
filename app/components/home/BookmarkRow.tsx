import { ActionIcon, Anchor, CloseButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconBookmark, IconPlus } from '@tabler/icons-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
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
 * full), deletes, and drags to reorder (or moves with Alt and an arrow key), each change shown at once and undone if
 * the save fails.
 */
export function BookmarkRow({ kind, admin }: { kind: BookmarkListKind; admin: boolean }) {
  const { bookmarks, save } = useBookmarkList(kind);
  const [adding, setAdding] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const [followFocus, setFollowFocus] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // Reordering moves the list's nodes, which drops focus: it goes back to the moved bookmark once it is in place.
  useEffect(() => {
    if (followFocus === null) return;
    const anchor = [...(listRef.current?.querySelectorAll('a') ?? [])].find(
      (a) => a.textContent === followFocus,
    );
    if (!anchor) return;
    anchor.focus();
    setFollowFocus(null);
  }, [bookmarks, followFocus]);
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
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= bookmarks.length) return false;
    void save(moveBookmark(bookmarks, from, to), { failure: spec.REORDER_ERROR });
    return true;
  };
  const drop = (to: number) => {
    if (dragged !== null) move(dragged, to);
  };
  // The keyboard's drag: Alt with an arrow moves the focused bookmark one place, and focus goes with it.
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, index: number) => {
    if (!editable || !event.altKey) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    if (move(index, index + step)) setFollowFocus(bookmarks[index]!.title);
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
        <ul className={classes.bookmarks} ref={listRef}>
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
                  title={editable ? strings.reorderHint(bookmark.link) : bookmark.link}
                  aria-keyshortcuts={editable ? 'Alt+ArrowLeft Alt+ArrowRight' : undefined}
                  onKeyDown={(event) => onKeyDown(event, index)}
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
