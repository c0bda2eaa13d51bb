import type { ReactElement } from 'react';

/** Extra data a route of the table may carry (React Router's `handle`). */
export interface RouteHandle {
  /**
   * What a signed-out visitor sees at this route instead of being sent to /login. Lets a signed-in
   * route and its public twin share one address (spec §2.1: /topic/{id}/{msgId?}).
   */
  signedOutElement?: ReactElement;
}

export function signedOutElementOf(matches: ReadonlyArray<{ handle: unknown }>): ReactElement | null {
  for (const match of matches) {
    const handle = match.handle as RouteHandle | undefined;
    if (handle?.signedOutElement) return handle.signedOutElement;
  }
  return null;
}
