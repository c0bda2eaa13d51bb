import { Stack, Text } from '@mantine/core';
import { statusBadge, type ConnectionColumn } from '../../../common/connection-status';
import { useAppActions } from './AppActions';
import { ConnectionBadge } from './ConnectionBadge';
import { columnsOf, definitionOf, type AppEntry, type ConnectOption, type Viewer } from './apps-view';

/**
 * One column (org or individual) of an app: a badge per connection, named when there are several, or the
 * column's Connect button or placeholder when there is none.
 */
export function AppColumn({
  entry,
  column,
  viewer,
  option,
}: {
  entry: AppEntry;
  column: ConnectionColumn;
  viewer: Viewer;
  option: ConnectOption;
}) {
  const actions = useAppActions();
  const app = definitionOf(entry);
  const columns = columnsOf(entry, viewer);
  const connections = column === 'org' ? columns.org : columns.individual;
  const orgConnection = columns.org[0];
  const isOrg = column === 'org';
  const badgeOf = (connection: (typeof connections)[number] | undefined) =>
    statusBadge({ app, column, connection, orgConnection, viewerIsAdmin: viewer.admin });
  const onConnect = () => actions.connect(entry, isOrg, option);

  if (connections.length === 0)
    return (
      <ConnectionBadge
        badge={badgeOf(undefined)}
        connectOption={option}
        onConnect={onConnect}
        onReconnect={onConnect}
        onDisconnect={onConnect}
      />
    );
  return (
    <Stack gap={6} data-testid={`column-${column}`}>
      {connections.map((connection) => (
        <Stack key={connection.id} gap={2} data-connection-id={connection.id}>
          {connections.length > 1 && (
            <Text size="xs" c="dimmed" truncate maw={200}>
              {connection.connectionName ?? connection.workspaceName ?? connection.email ?? app.displayName}
            </Text>
          )}
          <ConnectionBadge
            badge={badgeOf(connection)}
            connectOption={option}
            onConnect={onConnect}
            onReconnect={() => actions.reconnect(entry, connection)}
            onDisconnect={() => actions.disconnect(connection)}
          />
        </Stack>
      ))}
    </Stack>
  );
}
