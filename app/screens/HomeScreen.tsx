import {
  ActionIcon,
  Anchor,
  Avatar,
  Button,
  CloseButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconBuildingCog, IconPencil, IconPuzzle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { appsToReconnect } from '../../common/connection-status';
import {
  APP_RECONNECT_COUNT_LIMIT,
  APP_SUGGESTIONS_SHOWN,
  HOMEPAGE_APP_ICONS_SHOWN,
  RECOMMENDED_APPS_MIN_LIST,
} from '../../common/limits';
import { apps as appStrings, shell } from '../../common/strings';
import { useOrg } from '../api/org';
import { isFlagOn, useSignedInUser } from '../auth/session';
import { AppIcon } from '../components/apps/AppIcon';
import { useApps } from '../components/apps/apps-api';
import { enabledApps, suggestedApps, type AppEntry, type Viewer } from '../components/apps/apps-view';
import { closeReconnectCard, countReconnect, readReconnectCounts } from '../components/apps/reconnect-counts';
import { BookmarkRow } from '../components/home/BookmarkRow';
import { HomeQuestion } from '../components/home/HomeQuestion';
import classes from '../components/home/home.module.css';
import { appsCopy } from '../strings';

/**
 * The homepage (spec shell-and-account §2.7): the apps strip, the question box that asks on /chat, the workflow
 * chips, the two bookmark rows, and the apps cards.
 */
export function HomeScreen() {
  const user = useSignedInUser();
  const apps = useApps();
  const org = useOrg();
  const viewer: Viewer = { userId: user.userId, admin: user.admin };
  const all = apps.data?.apps ?? [];
  const appLink = (name: string) => `/apps/${user.admin ? 'org' : 'individual'}/${name}`;

  return (
    <Stack p={{ base: 'md', sm: 'xl' }} gap="xl" className={classes.home} data-testid="home">
      <Group justify="flex-end">
        {isFlagOn(user, 'homepageConfiguration') && <HomeShortcuts admin={user.admin} />}
        {apps.data && <AppsStrip apps={enabledApps(all, viewer)} />}
      </Group>
      <Stack gap="lg" className={classes.column}>
        <Title order={1} ta="center" className={classes.heading}>
          {shell.HOME_HEADING}
        </Title>
        <HomeQuestion />
        <BookmarkRow kind="personal" admin={user.admin} />
        {org.data && <BookmarkRow kind="company" admin={user.admin} />}
        {apps.data && isFlagOn(user, 'reconnectAppsCard') && (
          <ReconnectCard entries={all} userId={user.userId} appLink={appLink} />
        )}
        {apps.data && org.data && (
          <SuggestionCards
            apps={suggestedApps(all, viewer, org.data.appPreferences, {
              shown: APP_SUGGESTIONS_SHOWN,
              minList: RECOMMENDED_APPS_MIN_LIST,
            })}
            appLink={appLink}
          />
        )}
      </Stack>
    </Stack>
  );
}

/**
 * The round icon buttons of spec §2.7 (behind homepageConfiguration): the admin's to the workspace settings, a
 * member's to their own, and the browser extension's page.
 */
function HomeShortcuts({ admin }: { admin: boolean }) {
  const settings = admin
    ? { label: shell.MANAGE_WORKSPACE_SETTINGS, to: '/admin/appearance', icon: <IconBuildingCog size={20} /> }
    : { label: shell.EDIT_HOMEPAGE, to: '/my-settings', icon: <IconPencil size={20} /> };
  return (
    <Group gap="xs" data-testid="home-shortcuts">
      {[
        settings,
        { label: shell.INSTALL_EXTENSION, to: '/browser-extension', icon: <IconPuzzle size={20} /> },
      ].map((shortcut) => (
        <Tooltip key={shortcut.to} label={shortcut.label} withinPortal>
          <ActionIcon
            component={Link}
            to={shortcut.to}
            variant="default"
            radius="xl"
            size={40}
            aria-label={shortcut.label}
          >
            {shortcut.icon}
          </ActionIcon>
        </Tooltip>
      ))}
    </Group>
  );
}

/** Up to three icons of connected apps, '+N' for the rest, and 'Connect more apps'. */
function AppsStrip({ apps }: { apps: readonly AppEntry[] }) {
  const shown = apps.slice(0, HOMEPAGE_APP_ICONS_SHOWN);
  const rest = apps.length - shown.length;
  return (
    <Group gap="sm" data-testid="apps-strip" aria-label={appsCopy.APPS_STRIP_LABEL}>
      {shown.length > 0 && (
        <Avatar.Group spacing="xs">
          {shown.map((entry) => (
            <Tooltip key={entry.shortname} label={entry.displayName} withinPortal>
              <Avatar name={entry.displayName} color="initials" radius="xl" data-testid="apps-strip-icon" />
            </Tooltip>
          ))}
          {rest > 0 && (
            <Avatar radius="xl" data-testid="apps-strip-more">
              {shell.moreApps(rest)}
            </Avatar>
          )}
        </Avatar.Group>
      )}
      <Anchor component={Link} to="/integrations" size="sm" fw={500}>
        {shell.CONNECT_MORE_APPS}
      </Anchor>
    </Group>
  );
}

/**
 * 'Reconnect Apps for accurate answers' (spec §4.8): the user's instant apps in error whose reconnect count is under
 * 2. Closing hides it here and sets each listed app's count to 1.
 */
function ReconnectCard({
  entries,
  userId,
  appLink,
}: {
  entries: readonly AppEntry[];
  userId: string;
  appLink: (name: string) => string;
}) {
  const [closed, setClosed] = useState(false);
  const names = appsToReconnect(
    entries.flatMap((entry) => entry.connections),
    userId,
    readReconnectCounts(userId),
    APP_RECONNECT_COUNT_LIMIT,
  );
  if (closed || names.length === 0) return null;
  const byName = new Map(entries.map((entry) => [entry.shortname, entry]));
  return (
    <Paper withBorder radius="lg" p="md" data-testid="reconnect-card">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{shell.RECONNECT_APPS_CARD}</Text>
        <CloseButton
          aria-label={appsCopy.CLOSE}
          onClick={() => {
            closeReconnectCard(userId, names);
            setClosed(true);
          }}
          data-testid="reconnect-card-close"
        />
      </Group>
      <Stack gap="xs">
        {names.map((name) => {
          const displayName = byName.get(name)?.displayName ?? name;
          return (
            <Group key={name} justify="space-between">
              <Group gap="sm">
                <AppIcon name={displayName} size={28} />
                <Text size="sm">{displayName}</Text>
              </Group>
              <Button
                size="xs"
                color="orange"
                component={Link}
                to={appLink(name)}
                onClick={() => countReconnect(userId, name)}
              >
                {appStrings.RECONNECT}
              </Button>
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}

/** Up to three apps worth connecting next, each leading to its page with the Connect menu. */
function SuggestionCards({
  apps,
  appLink,
}: {
  apps: readonly AppEntry[];
  appLink: (name: string) => string;
}) {
  if (apps.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="app-suggestions">
      <Text size="sm" c="dimmed">
        {appsCopy.SUGGESTIONS_LABEL}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {apps.map((entry) => (
          <Paper key={entry.shortname} withBorder radius="lg" p="md" data-testid="app-suggestion">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <AppIcon name={entry.displayName} />
                <Text fw={600} size="sm">
                  {entry.displayName}
                </Text>
              </Group>
              {/* the button keeps its width; a long app name wraps instead */}
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={appLink(entry.shortname)}
                style={{ flex: 'none' }}
              >
                {appStrings.CONNECT}
              </Button>
            </Group>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
