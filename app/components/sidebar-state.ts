// Whether the sidebar is open (spec shell-and-account §4.4, §4.11, §9): on wide screens as the member last left it
// (remembered in local storage); closed, and closing, when the window narrows below 1175 px; on phones (under
// 768 px) a drawer over the screen, closed until opened and closed again on every move to another screen.
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { MOBILE_BREAKPOINT_PX, SIDEBAR_AUTO_CLOSE_BREAKPOINT_PX } from '../../common/limits';
import { SIDEBAR_OPEN_KEY } from '../config';

/** Mantine's 'sm' breakpoint is 48em, 768 px: below it the AppShell's navbar is the phone drawer. */
export const SHELL_BREAKPOINT = 'sm';

const now = { getInitialValueInEffect: false };

export function useSidebarState(): { opened: boolean; mobile: boolean; open(): void; close(): void } {
  const wide = useMediaQuery(`(min-width: ${SIDEBAR_AUTO_CLOSE_BREAKPOINT_PX}px)`, true, now);
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`, false, now);
  const [remembered, remember] = useLocalStorage({
    key: SIDEBAR_OPEN_KEY,
    defaultValue: true,
    getInitialValueInEffect: false,
  });
  const layout = mobile ? 'phone' : wide ? 'wide' : 'narrow';
  const { pathname } = useLocation();
  const [state, setState] = useState(() => ({ opened: layout === 'wide' && remembered, layout, pathname }));
  // Adjusted while rendering, not in an effect: narrowing below the breakpoint closes it, widening again brings back
  // what the member chose; on a phone, where the drawer covers the screen, going somewhere closes it.
  if (state.layout !== layout || state.pathname !== pathname) {
    const opened = state.layout !== layout ? layout === 'wide' && remembered : !mobile && state.opened;
    setState({ opened, layout, pathname });
  }
  const setOpened = useCallback((opened: boolean) => setState((current) => ({ ...current, opened })), []);

  const choose = useCallback(
    (value: boolean) => {
      setOpened(value);
      // a choice made at a width where the sidebar would be open anyway is the one to remember
      if (wide && !mobile) remember(value);
    },
    [wide, mobile, remember, setOpened],
  );
  const open = useCallback(() => choose(true), [choose]);
  const close = useCallback(() => choose(false), [choose]);
  return { opened: state.opened, mobile, open, close };
}
