import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { queryClient } from './api/queryClient';
import { AppErrorBoundary } from './components/AppErrorBoundary';
import { OfflineBanner } from './components/banners/OfflineBanner';
import { EnvironmentBadge } from './components/EnvironmentBadge';
import { routes } from './routes/routes';
import { theme } from './theme';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <MantineProvider theme={theme}>
      <AppErrorBoundary>
        <Notifications />
        <OfflineBanner />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
        <EnvironmentBadge />
      </AppErrorBoundary>
    </MantineProvider>
  );
}
