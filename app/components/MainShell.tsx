import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router';
import { SetupDialog } from './SetupDialog';
import { OutageBanner } from './banners/OutageBanner';
import { OnboardingTour } from './tour/OnboardingTour';
import { Sidebar } from './Sidebar';

/** The frame of every signed-in screen: sidebar on the left, the route's screen beside it. */
export function MainShell() {
  return (
    <AppShell navbar={{ width: 260, breakpoint: 'xs' }} padding={0}>
      <AppShell.Navbar p="md" aria-label="Sidebar">
        <Sidebar />
      </AppShell.Navbar>
      <AppShell.Main>
        <OutageBanner />
        <Outlet />
      </AppShell.Main>
      <SetupDialog />
      <OnboardingTour />
    </AppShell>
  );
}
