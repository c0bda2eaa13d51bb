import { Navigate, Outlet } from 'react-router';
import { isFlagOn, useSignedInUser } from '../../auth/session';
import type { FlagName } from '../../../common/flags';

interface RequireFlagProps {
  flag: FlagName;
}

/** A screen behind a feature flag does not exist while the flag is off: its address goes home. */
export function RequireFlag({ flag }: RequireFlagProps) {
  const user = useSignedInUser();
  return isFlagOn(user, flag) ? <Outlet /> : <Navigate to="/" replace />;
}
