import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { useCurrentUser, useTokens } from '../../auth/session';
import { loginPathFor } from '../../auth/redirect';
import { LoadingSplash } from '../../components/LoadingSplash';
import { signedOutElementOf } from '../handle';

/**
 * Gate of the signed-in tree: without tokens, a route's public twin or /login (carrying where the
 * visitor was going); with tokens, the splash until the user is known.
 */
export function RequireSignedIn() {
  const tokens = useTokens();
  const location = useLocation();
  const matches = useMatches();
  const user = useCurrentUser();

  if (!tokens) {
    return (
      signedOutElementOf(matches) ?? (
        <Navigate to={loginPathFor(location.pathname, location.search)} replace />
      )
    );
  }
  // A 401 clears the tokens, which lands in the branch above on the next render.
  if (user.isError) return <LoadingSplash failed />;
  if (!user.data) return <LoadingSplash />;
  return <Outlet />;
}
