import { ActionIcon, AppShell, Overlay, Text } from '@mantine/core';
import { IconMenu2 } from '@tabler/icons-react';
import { Outlet } from 'react-router';
import { useSignedInUser } from '../auth/session';
import { sidebarLayoutCopy } from '../strings';
import { SetupDialog } from './SetupDialog';
import { OutageBanner } from './banners/OutageBanner';
import { OnboardingTour } from './tour/OnboardingTour';
import { Sidebar } from './Sidebar';
import { SHELL_BREAKPOINT, useSidebarState } from './sidebar-state';
import classes from './shell.module.css';

const SIDEBAR_WIDTH_PX = 260;
const HEADER_HEIGHT_PX = 52;

/**
 * The frame of every signed-in screen: the sidebar on the left, the route's screen beside it. While the sidebar is
 * closed a slim bar above the screen holds the control that opens it; on phones the sidebar is a drawer over the
 * screen, closed by its own control or a tap beside it.
 */
export function MainShell() {
  const user = useSignedInUser();
  const sidebar = useSidebarState();
  return (
    <AppShell
      navbar={{
        width: SIDEBAR_WIDTH_PX,
        breakpoint: SHELL_BREAKPOINT,
        collapsed: { mobile: !sidebar.opened, desktop: !sidebar.opened },
      }}
      header={{ height: HEADER_HEIGHT_PX, collapsed: sidebar.opened }}
      padding={0}
    >
      {!sidebar.opened && (
        <AppShell.Header className={classes.header} data-testid="shell-header">
          <ActionIcon
            variant="subtle"
            color="gray"
            size={40}
            onClick={sidebar.open}
            aria-label={sidebarLayoutCopy.OPEN_SIDEBAR}
            data-testid="sidebar-open"
          >
            <IconMenu2 size={20} />
          </ActionIcon>
          <Text fw={700} truncate>
            {user.org.name}
          </Text>
        </AppShell.Header>
      )}
      <AppShell.Navbar p="md" aria-label="Sidebar" className={classes.navbar} data-testid="sidebar">
        <Sidebar onClose={sidebar.close} />
      </AppShell.Navbar>
      {sidebar.mobile && sidebar.opened && (
        <Overlay
          fixed
          zIndex={150}
          backgroundOpacity={0.4}
          onClick={sidebar.close}
          data-testid="sidebar-backdrop"
        />
      )}
      <AppShell.Main>
        <OutageBanner />
        <Outlet />
      </AppShell.Main>
      <SetupDialog />
      <OnboardingTour />
    </AppShell>
  );
}
