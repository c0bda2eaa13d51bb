import { QueryClient } from '@tanstack/react-query';

/** The one cache of server state in the SPA. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Focus refetches would re-run every screen's queries whenever someone switches tabs.
      refetchOnWindowFocus: false,
    },
  },
});
