import { Anchor, Avatar, Box, Divider, Group, Menu, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout, IconSearch, IconSettings, IconUserPlus } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link, useNavigate } from 'react-router';
import { shell } from '../../common/strings';
import { useOrg } from '../api/org';
import { logout, useSignedInUser } from '../auth/session';
import { searchCopy } from '../strings';
import { settingsGroups } from './settings-groups';
import { APPS_ENTRY, AppErrorMarker, hasAppErrors } from './apps/AppErrorMarker';
import { useApps } from './apps/apps-api';
import { SidebarTopics } from './SidebarTopics';
import { InviteMembersDialog } from './invite/InviteMembersDialog';

/** The sidebar (spec §2.8), so far its top, My topics, and its footer's Settings and Invite. */
export function Sidebar() {
  const user = useSignedInUser();
  const org = useOrg();
  const navigate = useNavigate();
  const [inviting, invite] = useDisclosure(false);
  const groups = settingsGroups(user, Boolean(org.data?.exploToken));
  const apps = useApps();
  const appErrors = hasAppErrors(apps.data?.apps ?? [], user);

  return (
    <Stack h="100%" justify="space-between" gap="md">
      <Anchor component={Link} to="/" c="inherit" underline="never">
        <Group gap="sm" wrap="nowrap">
          <Avatar src={user.org.logo} radius="md" color="indigo" name={user.org.name} size={32} />
          <Text fw={700} size="lg" truncate data-testid="workspace-name">
            {user.org.name}
          </Text>
        </Group>
      </Anchor>

      <SidebarTopics />

      <Stack gap={4}>
        <NavLink
          component={Link}
          to="/search"
          label={searchCopy.NAV}
          leftSection={<IconSearch size={18} />}
          data-testid="sidebar-search"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
        <Divider mb={4} />
        <Menu position="right-end" width={240} shadow="md" withinPortal>
          <Menu.Target>
            <NavLink
              component="button"
              label={shell.SETTINGS}
              leftSection={<IconSettings size={18} />}
              rightSection={appErrors && <AppErrorMarker />}
              data-testid="sidebar-settings"
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          </Menu.Target>
          <Menu.Dropdown data-testid="settings-panel">
            {groups.map((group, index) => (
              <Fragment key={group.testId}>
                {index > 0 && <Menu.Divider />}
                <Box data-testid={group.testId}>
                  {group.label && <Menu.Label>{group.label}</Menu.Label>}
                  {group.entries.map((entry) => (
                    <Menu.Item
                      key={entry.to}
                      onClick={() => navigate(entry.to)}
                      rightSection={entry.to === APPS_ENTRY && appErrors && <AppErrorMarker />}
                    >
                      {entry.label}
                    </Menu.Item>
                  ))}
                  {group.testId === 'settings-personal' && (
                    <Menu.Item
                      color="red"
                      leftSection={<IconLogout size={16} />}
                      onClick={() => void logout()}
                    >
                      {shell.LOGOUT}
                    </Menu.Item>
                  )}
                </Box>
              </Fragment>
            ))}
          </Menu.Dropdown>
        </Menu>
        <NavLink
          component="button"
          label={shell.INVITE}
          leftSection={<IconUserPlus size={18} />}
          onClick={invite.open}
          data-testid="sidebar-invite"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
        <Group gap="sm" wrap="nowrap" px="xs" pt="xs">
          <Avatar
            src={user.metadata.photoUrl}
            radius="xl"
            size="sm"
            name={user.metadata.displayName}
            color="initials"
          />
          <Text size="sm" truncate data-testid="sidebar-user">
            {user.metadata.displayName}
          </Text>
        </Group>
      </Stack>
      <InviteMembersDialog opened={inviting} onClose={invite.close} />
    </Stack>
  );
}
