import {
  ActionIcon,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconDots, IconPencil, IconShare, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { TopicAccess } from '../../../common/api/messages';
import { TOPIC_TITLE_MAX_CHARS } from '../../../common/api/topics';
import { shell } from '../../../common/strings';
import { chatCopy } from '../../strings';
import { ShareDialog } from './ShareDialog';
import classes from './chat.module.css';

/** Today's time, else the date (and the year when it is not this year). */
export function topicTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return shell.INVALID_DATE;
  const sameDay = date.toDateString() === now.toDateString();
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (sameDay) return time;
  const day = date.toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
  return `${day}, ${time}`;
}

type Props = {
  conversationId: string;
  /** The topic's access as its latest message says; the share dialog starts from it. */
  access: TopicAccess;
  title: string;
  timestamp: string;
  canEdit: boolean;
  canDelete: boolean;
  /** Saves a new title (the caller shows it at once and puts the old one back if the server refuses). */
  onRename(title: string): Promise<void>;
  onDelete(): Promise<void>;
};

/** The sticky divider over a topic's messages: its title (click to edit), its time and a menu. */
export function TopicDivider(props: Props) {
  const { conversationId, access, title, timestamp, canEdit, canDelete, onRename, onDelete } = props;
  const [editing, setEditing] = useState(false);
  const [sharing, share] = useDisclosure(false);
  const [draft, setDraft] = useState(title);
  const [confirming, confirm] = useDisclosure(false);
  const [deleting, setDeleting] = useState(false);
  const display = title;

  const startEditing = () => {
    if (!canEdit) return;
    setDraft(display);
    setEditing(true);
  };

  const save = async () => {
    setEditing(false);
    const next = draft.trim();
    // Spec §4: empty text reverts to the previous title.
    if (!next || next === display) return;
    await onRename(next);
  };

  const remove = async () => {
    setDeleting(true);
    try {
      await onDelete();
      confirm.close();
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className={classes.divider} data-testid="topic-divider">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        {editing ? (
          <TextInput
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            onBlur={() => void save()}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
                event.preventDefault();
                event.currentTarget.blur();
              }
              if (event.key === 'Escape') {
                setDraft(display);
                setEditing(false);
              }
            }}
            maxLength={TOPIC_TITLE_MAX_CHARS}
            aria-label={chatCopy.TOPIC_TITLE_LABEL}
            size="xs"
            autoFocus
            style={{ flex: 1 }}
            data-testid="topic-title-input"
          />
        ) : (
          <UnstyledButton
            onClick={startEditing}
            disabled={!canEdit}
            className={classes.topicTitle}
            data-testid="topic-title"
          >
            <Text fw={600} size="sm" truncate>
              {display || chatCopy.UNTITLED_TOPIC}
            </Text>
          </UnstyledButton>
        )}
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {topicTime(timestamp)}
          </Text>
          {(canEdit || canDelete) && (
            <Menu position="bottom-end" withinPortal shadow="md">
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label={chatCopy.TOPIC_MENU}>
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {canEdit && (
                  <Menu.Item leftSection={<IconPencil size={14} />} onClick={startEditing}>
                    {chatCopy.RENAME_TOPIC}
                  </Menu.Item>
                )}
                {canEdit && (
                  <Menu.Item leftSection={<IconShare size={14} />} onClick={share.open}>
                    {chatCopy.SHARE}
                  </Menu.Item>
                )}
                {canDelete && (
                  <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={confirm.open}>
                    {chatCopy.DELETE_TOPIC}
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      {sharing && <ShareDialog conversationId={conversationId} access={access} onClose={share.close} />}
      <Modal opened={confirming} onClose={confirm.close} title={chatCopy.DELETE_CONFIRM_TITLE} centered>
        <Stack>
          <Text size="sm">{chatCopy.DELETE_CONFIRM_TEXT}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={confirm.close}>
              {chatCopy.CANCEL}
            </Button>
            <Button color="red" loading={deleting} onClick={() => void remove()} data-testid="confirm-delete">
              {chatCopy.DELETE}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </div>
  );
}
