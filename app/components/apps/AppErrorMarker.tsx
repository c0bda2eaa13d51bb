import { Box } from '@mantine/core';
import type { AppsResponse } from '../../../common/api/apps';
import { connectionsWithErrors } from '../../../common/connection-status';
import { appsCopy } from '../../strings';

/** Where the settings panel's Apps entry leads (settings-groups.ts). */
export const APPS_ENTRY = '/apps/org';

/** Spec §2.8, §4.8: an instant app in error that the viewer can act on marks Apps in the sidebar. */
export function hasAppErrors(
  apps: AppsResponse['apps'],
  viewer: { userId: string; admin: boolean },
): boolean {
  return (
    connectionsWithErrors(
      apps.flatMap((app) => app.connections),
      viewer,
    ).length > 0
  );
}

export function AppErrorMarker() {
  return (
    <Box
      component="span"
      w={8}
      h={8}
      bg="red.6"
      style={{ borderRadius: '50%', display: 'inline-block' }}
      role="img"
      aria-label={appsCopy.ERROR_MARKER}
      data-testid="app-error-marker"
    />
  );
}
