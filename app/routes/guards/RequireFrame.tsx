import { Navigate, Outlet } from 'react-router';

/** True when this page is embedded, as the browser extension embeds the side panel. */
function isInFrame(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    // Some browsers throw on window.top across origins; that too means we are framed.
    return true;
  }
}

/** The side panel only makes sense inside the extension's frame; opened as a page it goes home (spec §2.2). */
export function RequireFrame() {
  return isInFrame() ? <Outlet /> : <Navigate to="/" replace />;
}
