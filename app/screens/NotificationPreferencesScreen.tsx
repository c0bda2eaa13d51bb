import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  notificationMessages,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
} from '../../common/api/notifications';
import { inboxCopy } from '../../common/strings';
import { isFlagOn, useSignedInUser } from '../auth/session';
import { useNotificationPreferences, useSaveNotificationPreferences } from '../components/inbox/inbox-api';
import { notifyFailure, notifySuccess } from '../components/toast';

const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  in_app: inboxCopy.CHANNEL_IN_APP,
  email: inboxCopy.CHANNEL_EMAIL,
  desktop: inboxCopy.CHANNEL_DESKTOP,
};

const KIND_LABELS: Record<NotificationKind, string> = {
  tagged_users: inboxCopy.KIND_TAGGED_USERS,
  bot_admins: inboxCopy.KIND_BOT_ADMINS,
  new_msgs: inboxCopy.KIND_NEW_MSGS,
  user_added_to_topic: inboxCopy.KIND_USER_ADDED_TO_TOPIC,
  research: inboxCopy.KIND_RESEARCH,
};

const flag = (on: boolean) => (on ? 'True' : 'False');

/** /notification-preferences: which kinds reach the member in the inbox, by email and on the desktop. */
export function NotificationPreferencesScreen() {
  const user = useSignedInUser();
  const enabled = isFlagOn(user, 'notifications') && isFlagOn(user, 'multiplayerEnabled');
  return (
    <Stack p="xl" maw={760} gap="lg">
      <Stack gap={4}>
        <Title order={2}>{inboxCopy.PREFERENCES_TITLE}</Title>
        <Text c="dimmed">{inboxCopy.PREFERENCES_INTRO}</Text>
      </Stack>
      {enabled ? (
        <PreferencesForm />
      ) : (
        <Alert variant="light">{notificationMessages.NOTIFICATIONS_OFF}</Alert>
      )}
    </Stack>
  );
}

function PreferencesForm() {
  const stored = useNotificationPreferences();
  const save = useSaveNotificationPreferences();
  // the member's changes since the last save, over what the server has
  const [edits, setEdits] = useState<NotificationPreferences | null>(null);
  const draft = edits ?? stored.data;
  const [permission, setPermission] = useState(() =>
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );

  if (stored.isError) return <Alert color="red">{inboxCopy.LOAD_FAILED}</Alert>;
  if (!draft) return <Loader size="sm" />;

  const toggle = (channel: NotificationChannel, kind: NotificationKind, on: boolean) => {
    setEdits({ ...draft, [channel]: { ...draft[channel], [kind]: flag(on) } });
    // the browser asks once, on the member's own click
    if (channel === 'desktop' && on && permission === 'default') {
      void Notification.requestPermission().then(setPermission);
    }
  };
  const wantsDesktop = NOTIFICATION_KINDS.some((kind) => draft.desktop[kind] === 'True');

  const submit = () =>
    save.mutate(draft, {
      onSuccess: () => {
        setEdits(null);
        notifySuccess(inboxCopy.SAVED);
      },
      onError: () => notifyFailure(inboxCopy.SAVE_FAILED),
    });

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <Table data-testid="notification-preferences">
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              {NOTIFICATION_CHANNELS.map((channel) => (
                <Table.Th key={channel} ta="center">
                  {CHANNEL_LABELS[channel]}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {NOTIFICATION_KINDS.map((kind) => (
              <Table.Tr key={kind}>
                <Table.Td>{KIND_LABELS[kind]}</Table.Td>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <Table.Td key={channel}>
                    <Group justify="center">
                      <Checkbox
                        aria-label={`${KIND_LABELS[kind]}: ${CHANNEL_LABELS[channel]}`}
                        checked={draft[channel][kind] === 'True'}
                        onChange={(event) => toggle(channel, kind, event.currentTarget.checked)}
                      />
                    </Group>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Switch
          label={inboxCopy.DESKTOP_PUSH_DISABLED}
          checked={draft.desktop_push_disabled === 'True'}
          onChange={(event) =>
            setEdits({ ...draft, desktop_push_disabled: flag(event.currentTarget.checked) })
          }
        />
        {wantsDesktop && permission === 'denied' && (
          <Alert variant="light" color="yellow">
            {inboxCopy.DESKTOP_PERMISSION_DENIED}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={submit} loading={save.isPending} data-testid="notification-preferences-save">
            {inboxCopy.SAVE}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
