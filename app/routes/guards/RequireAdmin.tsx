import { Navigate, Outlet } from 'react-router';
import { useSignedInUser } from '../../auth/session';

/** Admin-only screens send members home (spec §2.2, §6); the server enforces the same on every call. */
export function RequireAdmin() {
  const user = useSignedInUser();
  return user.admin ? <Outlet /> : <Navigate to="/" replace />;
}
