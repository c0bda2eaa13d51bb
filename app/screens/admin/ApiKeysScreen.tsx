import {
  ActionIcon,
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { API_KEYS_DISABLED_MESSAGE, type ApiKey } from '../../../common/api/api-keys';
import { Feature, requiredPlan } from '../../../common/plans';
import { shell } from '../../../common/strings';
import { serverMessageOf } from '../../api/errors';
import { useOrg } from '../../api/org';
import { isFlagOn, useSignedInUser } from '../../auth/session';
import { notifyFailure, notifySuccess } from '../../components/toast';
import { apiKeysCopy, sidebarCopy } from '../../strings';
import { API_KEYS_QUERY_KEY, apiKeysApi } from './api-keys/api';
import { CreateApiKeyDialog } from './api-keys/CreateApiKeyDialog';

const PLAN = requiredPlan(Feature.apiAccess);
const PLAN_NAME = `${PLAN.charAt(0)}${PLAN.slice(1).toLowerCase()}`;

const formatDate = (iso: string) => new Date(iso).toLocaleDateString();

/** /admin/api-keys: the org's API keys for the custom-api push API (docs/custom-api.md). */
export function ApiKeysScreen() {
  const user = useSignedInUser();
  const org = useOrg();
  const flagOn = isFlagOn(user, 'apiKeysEnabled');
  // Unknown until the org loads; the server refuses a plan-less org anyway, so only a known "no" shows the note.
  const planAllows = org.data?.features.apiAccess !== false;

  if (!flagOn)
    return (
      <Frame>
        <Alert variant="light">{API_KEYS_DISABLED_MESSAGE}</Alert>
      </Frame>
    );
  if (org.isPending)
    return (
      <Frame>
        <Loader size="sm" data-testid="api-keys-loading" />
      </Frame>
    );
  if (!planAllows) {
    return (
      <Frame>
        <Alert
          variant="light"
          color="indigo"
          title={apiKeysCopy.UPGRADE_TITLE}
          data-testid="api-keys-upgrade"
        >
          {apiKeysCopy.planNeeded(PLAN_NAME)}
        </Alert>
      </Frame>
    );
  }
  return <ApiKeysManager />;
}

function Frame({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <Stack p="xl" gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>{sidebarCopy.API_KEYS}</Title>
          <Text c="dimmed" size="sm">
            {apiKeysCopy.INTRO}
          </Text>
        </Stack>
        {action}
      </Group>
      {children}
    </Stack>
  );
}

function ApiKeysManager() {
  const queryClient = useQueryClient();
  const [creating, create] = useDisclosure(false);
  const [pending, setPending] = useState<ApiKey | null>(null);

  const list = useQuery({
    queryKey: API_KEYS_QUERY_KEY,
    queryFn: ({ signal }) => apiKeysApi.list(signal),
  });

  const revoke = useMutation({
    mutationFn: (key: ApiKey) => apiKeysApi.revoke(key.id),
    onSuccess: (_answer, key) => {
      notifySuccess(apiKeysCopy.revoked(key.name));
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY });
    },
    onError: (error) => notifyFailure(serverMessageOf(error) ?? shell.DEFAULT_ERROR),
  });

  return (
    <Frame
      action={
        <Button leftSection={<IconKey size={16} />} onClick={create.open}>
          {apiKeysCopy.CREATE}
        </Button>
      }
    >
      {list.isPending && <Loader size="sm" data-testid="api-keys-loading" />}

      {list.isError && (
        <Alert color="red" variant="light" data-testid="api-keys-error">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{serverMessageOf(list.error) ?? apiKeysCopy.LOAD_FAILED}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void list.refetch()}>
              {apiKeysCopy.RETRY}
            </Button>
          </Stack>
        </Alert>
      )}

      {list.data?.keys.length === 0 && (
        <Paper withBorder radius="lg" p="xl">
          <Text c="dimmed" ta="center" data-testid="api-keys-empty">
            {apiKeysCopy.EMPTY}
          </Text>
        </Paper>
      )}

      {list.data && list.data.keys.length > 0 && (
        <Paper withBorder radius="lg">
          <Table verticalSpacing="sm" horizontalSpacing="md" data-testid="api-keys-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{apiKeysCopy.NAME}</Table.Th>
                <Table.Th>{apiKeysCopy.KEY}</Table.Th>
                <Table.Th>{apiKeysCopy.CREATED_BY}</Table.Th>
                <Table.Th>{apiKeysCopy.CREATED}</Table.Th>
                <Table.Th>{apiKeysCopy.LAST_USED}</Table.Th>
                <Table.Th w={60}>
                  <VisuallyHidden>{apiKeysCopy.ACTIONS}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.keys.map((key) => (
                <Table.Tr key={key.id} data-testid="api-key-row" data-name={key.name}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {key.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Code>{`${key.prefix}…`}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {key.created_by
                        ? (key.created_by.name ?? key.created_by.email)
                        : apiKeysCopy.UNKNOWN_CREATOR}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDate(key.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" data-testid="api-key-last-used">
                      {key.last_used_at ? formatDate(key.last_used_at) : apiKeysCopy.NEVER_USED}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={apiKeysCopy.revokeLabel(key.name)}
                      onClick={() => setPending(key)}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}

      <Modal
        opened={pending !== null}
        onClose={() => setPending(null)}
        title={pending ? apiKeysCopy.revokeTitle(pending.name) : ''}
        centered
      >
        {pending && (
          <Stack gap="lg">
            <Text size="sm">{apiKeysCopy.REVOKE_TEXT}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                {apiKeysCopy.CANCEL}
              </Button>
              <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate(pending)}>
                {apiKeysCopy.REVOKE}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>

      <CreateApiKeyDialog opened={creating} onClose={create.close} />
    </Frame>
  );
}
