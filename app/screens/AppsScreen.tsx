import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import { FINCH_HRIS_ROUTE_APP, isHris } from '../../common/catalogue';
import { useOrg } from '../api/org';
import { useSignedInUser } from '../auth/session';
import { AppActionsProvider } from '../components/apps/AppActions';
import { AppsLoadState } from '../components/apps/AppsLoadState';
import { AppsTable } from '../components/apps/AppsTable';
import { ConnectionDetails } from '../components/apps/ConnectionDetails';
import { useApps } from '../components/apps/apps-api';
import { connectedApps, type FeatureSet, type Viewer } from '../components/apps/apps-view';
import { appsCopy } from '../strings';

const TYPES = new Set(['org', 'individual']);

/**
 * App management (/apps/{type}/{app?}): the connected apps with their org and individual columns, one app's
 * connections, or (/apps/org/finch) the HRIS apps. {type} is the side the viewer came from and keeps links there.
 */
export function AppsScreen() {
  const { type = 'org', app } = useParams();
  const user = useSignedInUser();
  const org = useOrg();
  const apps = useApps();
  if (!TYPES.has(type)) return <Navigate to="/apps/org" replace />;

  const viewer: Viewer = { userId: user.userId, admin: user.admin };
  const features: FeatureSet = org.data?.features ?? {};
  const all = apps.data?.apps ?? [];
  const base = `/apps/${type}`;
  const hris = app === FINCH_HRIS_ROUTE_APP;
  const single = app && !hris ? all.find((entry) => entry.shortname === app) : undefined;
  const entries = hris
    ? all.filter((entry) => isHris(entry.shortname))
    : app
      ? single
        ? [single]
        : []
      : connectedApps(all, viewer);

  // The page is always 'Apps'; one app's page or the HRIS list names itself underneath.
  const subtitle = hris ? appsCopy.HRIS_TITLE : single?.displayName;
  const intro = hris ? appsCopy.HRIS_INTRO : (single?.description ?? appsCopy.MANAGE_INTRO);

  return (
    <AppActionsProvider>
      <Stack p="xl" gap="lg" data-testid="apps-screen">
        {app && (
          <Anchor component={Link} to={base} size="sm">
            <Group gap={4}>
              <IconArrowLeft size={14} />
              {appsCopy.BACK_TO_APPS}
            </Group>
          </Anchor>
        )}
        <Group justify="space-between" align="flex-end">
          <Stack gap={4}>
            <Title order={1}>{appsCopy.MANAGE_TITLE}</Title>
            {subtitle && <Title order={2}>{subtitle}</Title>}
            <Text c="dimmed">{intro}</Text>
          </Stack>
          <Button component={Link} to="/integrations" variant="light">
            {appsCopy.BROWSE_APPS}
          </Button>
        </Group>
        {!apps.data ? (
          <AppsLoadState query={apps} />
        ) : app && !hris && !single ? (
          <Alert color="orange" variant="light" data-testid="apps-unknown">
            {appsCopy.UNKNOWN_APP}
          </Alert>
        ) : entries.length === 0 ? (
          <Stack align="flex-start" gap="sm" data-testid="apps-empty">
            <Text c="dimmed">{appsCopy.NO_CONNECTIONS}</Text>
          </Stack>
        ) : (
          <>
            <AppsTable
              entries={entries}
              allEntries={all}
              viewer={viewer}
              features={features}
              linkBase={base}
            />
            {single && <ConnectionDetails connections={single.connections} />}
          </>
        )}
      </Stack>
    </AppActionsProvider>
  );
}
