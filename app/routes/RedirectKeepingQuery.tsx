import { Navigate, useLocation } from 'react-router';

interface RedirectKeepingQueryProps {
  to: string;
}

/** Redirects that the spec says keep the query string: old /chat aliases and unknown paths. */
export function RedirectKeepingQuery({ to }: RedirectKeepingQueryProps) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}
