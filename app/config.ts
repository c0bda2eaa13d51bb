/**
 * Where /uninstall sends the browser. The spec names "an external page" without an address, so an
 * operator sets it at build time (VITE_UNINSTALL_URL, e.g. a farewell survey). Without one we land on
 * Scout's own homepage: a build that knows no external page must not send people to a made-up host.
 */
export const UNINSTALL_URL: string = import.meta.env.VITE_UNINSTALL_URL || '/';

/** Long enough for 'Redirecting..' to be read before the page goes away. */
export const UNINSTALL_REDIRECT_DELAY_MS = 1000;

/** Query parameter that counts crashes across reloads (spec shell-and-account §2.3). */
export const CRASH_COUNT_PARAM = 'crashCount';

/** Query parameter carrying where a signed-out visitor wanted to go (spec §2.1, §3 page-address state). */
export const REDIRECT_PARAM = 'redirect';

/**
 * Where 'Find a time' (spec §2.4, the unauthorized sign-in state) books a demo. Like the uninstall page, the spec
 * names no address, so an operator sets VITE_DEMO_URL; without one it leads to Scout's own sign-up, the way to try
 * an open-source Scout without anyone's calendar.
 */
export const DEMO_URL: string = import.meta.env.VITE_DEMO_URL || '/signup';

/** Local-storage key of the first-run setup dialog's done flag (spec §4.5), per user. */
export const setupDoneKey = (userId: string) => `scout.setupDone.${userId}`;

/**
 * The question box's soft length limit (spec asking-questions §9: a counter appears past it, outside AI-only mode,
 * with a tooltip that Scout works best under it). The spec does not give the value; 2000 characters is ours. The
 * hard cap is the socket's QUERY_MAX_CHARS.
 */
export const QUERY_SOFT_LIMIT_CHARS = 2000;

/**
 * The status page the outage banner points to (spec §8). Scout is self-hosted, so its status page is the
 * operator's: VITE_STATUS_PAGE_URL. Without one the banner still warns, without a link to nowhere.
 */
export const STATUS_PAGE_URL: string | undefined = import.meta.env.VITE_STATUS_PAGE_URL || undefined;

/**
 * The Support menu's external pages (spec shell-and-account §2.8). Like the uninstall page, the spec names no
 * addresses, so an operator sets them at build time; a link without one is left out of the menu rather than sent
 * to a made-up host. Request Feature needs none: its dialog stores the request in Scout.
 */
export const SUPPORT_LINKS = {
  contactUs: import.meta.env.VITE_CONTACT_US_URL ?? '',
  helpCenter: import.meta.env.VITE_HELP_CENTER_URL ?? '',
  slackCommunity: import.meta.env.VITE_SLACK_COMMUNITY_URL ?? '',
  earn500: import.meta.env.VITE_EARN_500_URL ?? '',
};
export type SupportLinks = typeof SUPPORT_LINKS;

/** Local-storage key of the sidebar's open state on wide screens (spec §4.4: it is remembered). */
export const SIDEBAR_OPEN_KEY = 'scout.sidebarOpen';
