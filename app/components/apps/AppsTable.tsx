import { Anchor, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { appsCopy } from '../../strings';
import { AppColumn } from './AppColumns';
import { AppIcon } from './AppIcon';
import { ConnectMenu } from './ConnectMenu';
import { connectOptions, type AppEntry, type FeatureSet, type Viewer } from './apps-view';

/** Apps with their org and individual columns (spec §2, §4), each with its Connect or Add menu. */
export function AppsTable({
  entries,
  allEntries,
  viewer,
  features,
  linkBase,
}: {
  entries: readonly AppEntry[];
  /** Every app, for the rules that look across apps (one HRIS app, the Google parent). */
  allEntries: readonly AppEntry[];
  viewer: Viewer;
  features: FeatureSet;
  /** Where an app's name leads, e.g. /apps/org; the app's short name is appended. */
  linkBase: string;
}) {
  return (
    <Paper withBorder radius="lg">
      <Table verticalSpacing="sm" horizontalSpacing="md" data-testid="apps-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{appsCopy.APP}</Table.Th>
            <Table.Th w={170}>{appsCopy.ORG}</Table.Th>
            <Table.Th w={170}>{appsCopy.INDIVIDUAL}</Table.Th>
            <Table.Th w={140} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const options = connectOptions(entry, allEntries, viewer, features);
            return (
              <Table.Tr key={entry.shortname} data-testid="app-row" data-app={entry.shortname}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <AppIcon name={entry.displayName} />
                    <Stack gap={0}>
                      <Anchor component={Link} to={`${linkBase}/${entry.shortname}`} fw={600} size="sm">
                        {entry.displayName}
                      </Anchor>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {entry.description}
                      </Text>
                    </Stack>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <AppColumn entry={entry} column="org" viewer={viewer} option={options.org} />
                </Table.Td>
                <Table.Td>
                  <AppColumn entry={entry} column="individual" viewer={viewer} option={options.individual} />
                </Table.Td>
                <Table.Td>
                  <ConnectMenu entry={entry} options={options} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
