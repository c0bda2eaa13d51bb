import { Navigate, Outlet } from 'react-router';
import type { CurrentUser } from '../../../common/api/session';
import { isFlagOn, useSignedInUser } from '../../auth/session';

/** Spec §4.4: setup is required while the org is not set up, unless the workspaceSetupDisabled flag is on. */
export function needsWorkspaceSetup(user: CurrentUser): boolean {
  return !user.org.isWorkspaceSetup && !isFlagOn(user, 'workspaceSetupDisabled');
}

/** Until the workspace is set up, every signed-in screen but /workspace-setup leads there. */
export function RequireWorkspaceSetup() {
  const user = useSignedInUser();
  return needsWorkspaceSetup(user) ? <Navigate to="/workspace-setup" replace /> : <Outlet />;
}
