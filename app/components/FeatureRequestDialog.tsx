import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { featureRequestCreatedSchema, FEATURE_REQUEST_MAX_CHARS } from '../../common/api/feature-requests';
import { FEATURE_REQUEST_MAX_ROWS, FEATURE_REQUEST_MIN_ROWS } from '../../common/limits';
import { feedback, shell } from '../../common/strings';
import { apiRequest } from '../api/client';
import { sidebarLayoutCopy } from '../strings';
import { notifyFailure, notifySuccess } from './toast';

/** `POST /feature_requests`: stored for the workspace's admins. */
function sendFeatureRequest(text: string) {
  return apiRequest('feature_requests', {
    method: 'POST',
    body: { text },
    schema: featureRequestCreatedSchema,
  });
}

/**
 * The feature-request dialog of the Support menu (spec shell-and-account §2.10, §5, §8): a text area of 4 to 6 rows,
 * Submit disabled while it is empty, 'Feature Request sent to the team' once the server has stored it.
 */
export function FeatureRequestDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: () => sendFeatureRequest(text.trim()),
    onSuccess: () => {
      notifySuccess(feedback.FEATURE_REQUEST_SENT);
      setText('');
      onClose();
    },
    onError: () => notifyFailure(shell.DEFAULT_ERROR),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={sidebarLayoutCopy.FEATURE_REQUEST_TITLE} centered>
      <Stack>
        <Textarea
          label={sidebarLayoutCopy.FEATURE_REQUEST_LABEL}
          placeholder={sidebarLayoutCopy.FEATURE_REQUEST_PLACEHOLDER}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={FEATURE_REQUEST_MIN_ROWS}
          maxRows={FEATURE_REQUEST_MAX_ROWS}
          maxLength={FEATURE_REQUEST_MAX_CHARS}
          data-autofocus
          data-testid="feature-request-text"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {sidebarLayoutCopy.CANCEL}
          </Button>
          <Button
            onClick={() => send.mutate()}
            disabled={text.trim() === ''}
            loading={send.isPending}
            data-testid="feature-request-submit"
          >
            {sidebarLayoutCopy.SUBMIT}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
