import { ActionIcon, Anchor, Avatar, Box, Divider, Group, Menu, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconHelpCircle,
  IconLayoutSidebarLeftCollapse,
  IconLogout,
  IconPuzzle,
  IconSearch,
  IconSettings,
  IconUserPlus,
} from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link, useNavigate } from 'react-router';
import { shell } from '../../common/strings';
import { useOrg } from '../api/org';
import { isFlagOn, logout, useSignedInUser } from '../auth/session';
import { searchCopy, sidebarLayoutCopy } from '../strings';
import { SUPPORT_LINKS } from '../config';
import { settingsGroups } from './settings-groups';
import { APPS_ENTRY, AppErrorMarker, hasAppErrors } from './apps/AppErrorMarker';
import { useApps } from './apps/apps-api';
import { SidebarTopics } from './SidebarTopics';
import { InviteMembersDialog } from './invite/InviteMembersDialog';
import { FeatureRequestDialog } from './FeatureRequestDialog';
import { supportLinks } from './support-links';
import classes from './shell.module.css';
import { InboxEntry } from './inbox/InboxEntry';

/**
 * The sidebar (spec §2.8): the workspace link and the control that closes the sidebar, the topic lists, and the
 * footer (Settings, Invite, Install Extension, Support).
 */
export function Sidebar({ onClose }: { onClose(): void }) {
  const user = useSignedInUser();
  const org = useOrg();
  const navigate = useNavigate();
  const [inviting, invite] = useDisclosure(false);
  const [requesting, request] = useDisclosure(false);
  const links = supportLinks(SUPPORT_LINKS, isFlagOn(user, 'earn500'));
  const groups = settingsGroups(user, Boolean(org.data?.exploToken));
  const apps = useApps();
  const appErrors = hasAppErrors(apps.data?.apps ?? [], user);

  return (
    <Stack h="100%" justify="space-between" gap="md">
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Anchor component={Link} to="/" c="inherit" underline="never" miw={0}>
          <Group gap="sm" wrap="nowrap" mih={40}>
            <Avatar src={user.org.logo} radius="md" color="indigo" name={user.org.name} size={32} />
            <Text fw={700} size="lg" truncate data-testid="workspace-name">
              {user.org.name}
            </Text>
          </Group>
        </Anchor>
        <ActionIcon
          variant="subtle"
          color="gray"
          size={40}
          onClick={onClose}
          aria-label={sidebarLayoutCopy.CLOSE_SIDEBAR}
          data-testid="sidebar-close"
        >
          <IconLayoutSidebarLeftCollapse size={20} />
        </ActionIcon>
      </Group>

      <SidebarTopics />

      <Stack gap={4}>
        <NavLink
          component={Link}
          to="/search"
          label={searchCopy.NAV}
          leftSection={<IconSearch size={18} />}
          data-testid="sidebar-search"
          className={classes.navItem}
        />
        <Divider mb={4} />
        <InboxEntry />
        <Menu position="right-end" width={240} shadow="md" withinPortal>
          <Menu.Target>
            <NavLink
              component="button"
              label={shell.SETTINGS}
              leftSection={<IconSettings size={18} />}
              rightSection={appErrors && <AppErrorMarker />}
              data-testid="sidebar-settings"
              className={classes.navItem}
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
          className={classes.navItem}
        />
        <NavLink
          component={Link}
          to="/browser-extension"
          label={shell.SIDEBAR_INSTALL_EXTENSION}
          leftSection={<IconPuzzle size={18} />}
          data-testid="sidebar-install-extension"
          className={classes.navItem}
        />
        <Menu position="right-end" width={240} shadow="md" withinPortal>
          <Menu.Target>
            <NavLink
              component="button"
              label={shell.SUPPORT}
              leftSection={<IconHelpCircle size={18} />}
              data-testid="sidebar-support"
              className={classes.navItem}
            />
          </Menu.Target>
          <Menu.Dropdown data-testid="support-menu">
            {links.map((link) => (
              <Menu.Item
                key={link.testId}
                component="a"
                href={link.href}
                target="_blank"
                rel="noopener noreferrer"
                data-testid={link.testId}
              >
                {link.label}
              </Menu.Item>
            ))}
            <Menu.Item onClick={request.open} data-testid="support-request-feature">
              {shell.REQUEST_FEATURE}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
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
      <FeatureRequestDialog opened={requesting} onClose={request.close} />
    </Stack>
  );
}
