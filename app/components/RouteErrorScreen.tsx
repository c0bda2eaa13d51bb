import { useRouteError } from 'react-router';
import { CrashScreen } from './CrashScreen';

/** The router's errorElement: a route that throws while rendering shows the crash screen. */
export function RouteErrorScreen() {
  const error = useRouteError();
  return <CrashScreen error={error} />;
}
