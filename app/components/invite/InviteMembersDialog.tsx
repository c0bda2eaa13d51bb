import { Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { useState } from 'react';
import { invitableDomainsOf, useOrg } from '../../api/org';
import { useSignedInUser } from '../../auth/session';
import { inviteCopy } from '../../strings';
import { InvitePicker } from './InvitePicker';
import type { InviteEntry } from './invite-list';
import { useSendInvites } from './send-invites';

interface InviteMembersDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** The Invite members dialog (spec asking-questions §2, §4): open to every member; roles only for admins. */
export function InviteMembersDialog({ opened, onClose }: InviteMembersDialogProps) {
  const user = useSignedInUser();
  const org = useOrg();
  const [entries, setEntries] = useState<InviteEntry[]>([]);
  const send = useSendInvites();

  const onSend = () =>
    send.mutate(entries, {
      onSuccess: (outcome) => {
        setEntries(outcome.kept);
        if (outcome.kept.length === 0) onClose();
      },
    });

  return (
    <Modal opened={opened} onClose={onClose} title={inviteCopy.DIALOG_TITLE} size="lg" centered>
      {org.data ? (
        <Stack gap="lg">
          <InvitePicker
            entries={entries}
            onChange={setEntries}
            canChooseRole={user.admin}
            domains={invitableDomainsOf(org.data)}
            disabled={send.isPending}
          />
          <Group justify="flex-end">
            <Button onClick={onSend} disabled={entries.length === 0} loading={send.isPending}>
              {inviteCopy.SEND}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group justify="center" p="lg">
          <Loader size="sm" />
        </Group>
      )}
    </Modal>
  );
}
