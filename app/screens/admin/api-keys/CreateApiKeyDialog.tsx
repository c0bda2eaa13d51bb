import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { API_KEY_NAME_MAX_CHARS, type ApiKeyCreateResponse } from '../../../../common/api/api-keys';
import { shell } from '../../../../common/strings';
import { serverMessageOf } from '../../../api/errors';
import { apiKeysCopy } from '../../../strings';
import { API_KEYS_QUERY_KEY, apiKeysApi } from './api';

/**
 * Names a new key, then shows its secret with a copy button. The secret lives only in this dialog's state: closing
 * the dialog forgets it, and the server never answers it again.
 */
export function CreateApiKeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<ApiKeyCreateResponse | null>(null);

  const create = useMutation({
    mutationFn: (keyName: string) => apiKeysApi.create(keyName),
    onSuccess: (answer) => {
      setCreated(answer);
      void queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY });
    },
  });

  const close = () => {
    setName('');
    setCreated(null);
    create.reset();
    onClose();
  };
  const trimmed = name.trim();
  const failure = create.isError ? (serverMessageOf(create.error) ?? shell.DEFAULT_ERROR) : null;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? apiKeysCopy.CREATED_TITLE : apiKeysCopy.CREATE}
      centered
      closeOnClickOutside={created === null}
    >
      {created ? (
        <Stack gap="md">
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
            {apiKeysCopy.SECRET_WARNING}
          </Alert>
          <TextInput
            label={created.key.name}
            value={created.secret}
            readOnly
            data-testid="api-key-secret"
            styles={{ input: { fontFamily: 'monospace' } }}
            onFocus={(event) => event.currentTarget.select()}
          />
          <Group justify="flex-end">
            <CopyButton value={created.secret}>
              {({ copied, copy }) => (
                <Button
                  variant="light"
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                >
                  {copied ? apiKeysCopy.COPIED : apiKeysCopy.COPY}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>{apiKeysCopy.DONE}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (trimmed) create.mutate(trimmed);
          }}
        >
          <Stack gap="md">
            <TextInput
              label={apiKeysCopy.NAME}
              placeholder={apiKeysCopy.NAME_PLACEHOLDER}
              value={name}
              maxLength={API_KEY_NAME_MAX_CHARS}
              data-autofocus
              error={failure}
              onChange={(event) => setName(event.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {apiKeysCopy.CANCEL}
              </Button>
              <Button type="submit" disabled={!trimmed} loading={create.isPending}>
                {apiKeysCopy.CREATE}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
