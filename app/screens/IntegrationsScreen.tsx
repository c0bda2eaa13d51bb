import { Anchor, Group, Paper, SimpleGrid, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AppCategory } from '../../common/catalogue';
import { useOrg } from '../api/org';
import { useSignedInUser } from '../auth/session';
import { AppActionsProvider } from '../components/apps/AppActions';
import { AppColumn } from '../components/apps/AppColumns';
import { AppIcon } from '../components/apps/AppIcon';
import { AppsLoadState } from '../components/apps/AppsLoadState';
import { ConnectMenu } from '../components/apps/ConnectMenu';
import { useApps } from '../components/apps/apps-api';
import {
  STORE_CATEGORIES,
  columnsOf,
  connectOptions,
  storeApps,
  type AppEntry,
  type FeatureSet,
  type Viewer,
} from '../components/apps/apps-view';
import { appsCopy } from '../strings';

/** The app store (/integrations): category tabs, popular apps first, search, and each app's Connect menu. */
export function IntegrationsScreen() {
  const user = useSignedInUser();
  const org = useOrg();
  const apps = useApps();
  const [category, setCategory] = useState<AppCategory>(AppCategory.ALL);
  const [search, setSearch] = useState('');
  const viewer: Viewer = { userId: user.userId, admin: user.admin };
  const features: FeatureSet = org.data?.features ?? {};
  const all = apps.data?.apps ?? [];
  const shown = apps.data ? storeApps(all, category, search) : [];

  return (
    <AppActionsProvider>
      <Stack p="xl" gap="lg" data-testid="app-store">
        <Stack gap={4}>
          <Title order={1}>{appsCopy.STORE_TITLE}</Title>
          <Text c="dimmed">{appsCopy.STORE_INTRO}</Text>
        </Stack>
        <TextInput
          placeholder={appsCopy.SEARCH_PLACEHOLDER}
          aria-label={appsCopy.SEARCH_LABEL}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={420}
          data-testid="app-store-search"
        />
        <Tabs
          value={search.trim() ? AppCategory.ALL : category}
          onChange={(value) => {
            setCategory((value as AppCategory | null) ?? AppCategory.ALL);
            setSearch('');
          }}
          variant="pills"
        >
          <Tabs.List>
            {STORE_CATEGORIES.map((value) => (
              <Tabs.Tab key={value} value={value} data-testid={`app-category-${value}`}>
                {appsCopy.CATEGORIES[value]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        {!apps.data ? (
          <AppsLoadState query={apps} />
        ) : shown.length === 0 ? (
          <Text c="dimmed" data-testid="app-store-empty">
            {appsCopy.noMatches(search.trim())}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {shown.map((entry) => (
              <AppCard key={entry.shortname} entry={entry} all={all} viewer={viewer} features={features} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </AppActionsProvider>
  );
}

function AppCard({
  entry,
  all,
  viewer,
  features,
}: {
  entry: AppEntry;
  all: readonly AppEntry[];
  viewer: Viewer;
  features: FeatureSet;
}) {
  const options = connectOptions(entry, all, viewer, features);
  const { org, individual } = columnsOf(entry, viewer);
  return (
    <Paper withBorder radius="lg" p="md" data-testid="app-card" data-app={entry.shortname}>
      <Stack gap="sm" h="100%" justify="space-between">
        <Stack gap="xs">
          <Group gap="sm" wrap="nowrap">
            <AppIcon name={entry.displayName} />
            <Anchor
              component={Link}
              to={`/apps/${viewer.admin ? 'org' : 'individual'}/${entry.shortname}`}
              fw={600}
            >
              {entry.displayName}
            </Anchor>
          </Group>
          <Text size="sm" c="dimmed" lineClamp={3}>
            {entry.description}
          </Text>
        </Stack>
        <Group justify="space-between" align="flex-end" wrap="nowrap">
          <Stack gap={4}>
            {org.length > 0 && <AppColumn entry={entry} column="org" viewer={viewer} option={options.org} />}
            {individual.length > 0 && (
              <AppColumn entry={entry} column="individual" viewer={viewer} option={options.individual} />
            )}
          </Stack>
          <ConnectMenu entry={entry} options={options} />
        </Group>
      </Stack>
    </Paper>
  );
}
