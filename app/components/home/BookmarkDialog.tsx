import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { BOOKMARK_LINK_FORMAT, type Bookmark } from '../../../common/api/bookmarks';
import { BOOKMARK_LINK_MAX_CHARS, BOOKMARK_TITLE_MAX_CHARS } from '../../../common/limits';
import { homeBookmarks as strings } from '../../../common/strings';
import { checkDraft } from './bookmarks';

/** The bookmark dialog (spec §2.10, §5): a title and a link, Save disabled until both are valid. */
export function BookmarkDialog({
  list,
  onSave,
  onClose,
}: {
  list: readonly Bookmark[];
  onSave(bookmark: Bookmark): void;
  onClose(): void;
}) {
  const [draft, setDraft] = useState<Bookmark>({ title: '', link: '' });
  const check = checkDraft(draft, list);
  return (
    <Modal opened onClose={onClose} title={strings.ADD_BOOKMARK} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (check.valid) onSave({ title: draft.title.trim(), link: draft.link.trim() });
        }}
      >
        <Stack>
          <TextInput
            label={strings.TITLE_LABEL}
            placeholder={strings.TITLE_PLACEHOLDER}
            value={draft.title}
            onChange={(event) => setDraft({ ...draft, title: event.currentTarget.value })}
            error={check.titleError}
            maxLength={BOOKMARK_TITLE_MAX_CHARS}
            data-autofocus
            data-testid="bookmark-title"
          />
          <TextInput
            label={strings.LINK_LABEL}
            placeholder={BOOKMARK_LINK_FORMAT}
            value={draft.link}
            onChange={(event) => setDraft({ ...draft, link: event.currentTarget.value })}
            error={check.linkError}
            maxLength={BOOKMARK_LINK_MAX_CHARS}
            inputMode="url"
            data-testid="bookmark-link"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {strings.CANCEL}
            </Button>
            <Button type="submit" disabled={!check.valid} data-testid="bookmark-save">
              {strings.SAVE}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
