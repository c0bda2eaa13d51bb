import { Navigate, Outlet, useSearchParams } from 'react-router';
import { useTokens } from '../../auth/session';
import { safeRedirectTarget } from '../../auth/redirect';
import { REDIRECT_PARAM } from '../../config';

/**
 * Gate of /login and /signup: someone already signed in goes where the redirect parameter points, or
 * home. Tokens the server no longer accepts come back here through RequireSignedIn, redirect kept.
 */
export function RequireSignedOut() {
  const tokens = useTokens();
  const [params] = useSearchParams();
  if (!tokens) return <Outlet />;
  const target = safeRedirectTarget(params.get(REDIRECT_PARAM), window.location.origin) ?? '/';
  return <Navigate to={target} replace />;
}
