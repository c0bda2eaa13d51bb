import { Navigate, Outlet } from 'react-router';
import { isInFrame } from '../../frame';

/** The side panel only makes sense inside the extension's frame; opened as a page it goes home (spec §2.2). */
export function RequireFrame() {
  return isInFrame() ? <Outlet /> : <Navigate to="/" replace />;
}
