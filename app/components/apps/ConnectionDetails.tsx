import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { AppConnectionView } from '../../../common/api/apps';
import { connectionDetails as copy } from '../../../common/strings';

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : copy.NEVER);

/**
 * Each connection's last sync, item count and last error, on an app's page. The server sends the counts and
 * errors to admins only, so a member's page shows nothing here.
 */
export function ConnectionDetails({ connections }: { connections: readonly AppConnectionView[] }) {
  const detailed = connections.filter((connection) => connection.itemCount !== undefined);
  if (detailed.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="connection-details">
      <Stack gap="sm">
        <Title order={3}>{copy.TITLE}</Title>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{copy.CONNECTION}</Table.Th>
              <Table.Th>{copy.LAST_SYNC}</Table.Th>
              <Table.Th>{copy.ITEMS}</Table.Th>
              <Table.Th>{copy.LAST_ERROR}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detailed.map((connection) => (
              <Table.Tr key={connection.id} data-testid="connection-details-row">
                <Table.Td>
                  {connection.connectionName ?? connection.workspaceName ?? connection.email ?? connection.id}
                </Table.Td>
                <Table.Td>{when(connection.syncedUntil)}</Table.Td>
                <Table.Td>{connection.itemCount?.toLocaleString()}</Table.Td>
                <Table.Td>
                  {connection.lastError ? (
                    <Text size="sm" c="red">
                      {when(connection.lastErrorAt)}: {connection.lastError}
                    </Text>
                  ) : (
                    copy.NONE
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
