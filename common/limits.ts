// The business constants and limits of section 9 of the three spec documents (plus the few numbers other
// sections state). One place, so the app's disabled buttons and the server's refusals use the same figures.
// The sync window lives in connection-status.ts beside the progress it measures.

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

// Bookmarks
export const BOOKMARKS_PER_LIST_MAX = 8;
export const BOOKMARK_TITLE_MAX_CHARS = 256;
export const BOOKMARK_LINK_MAX_CHARS = 3000;

// Members, mentions and invites
export const MEMBER_SUGGESTIONS_MAX = 5;
export const MENTION_PEOPLE_SUGGESTIONS_MAX = 5;
export const MENTION_BOT_SUGGESTIONS_MAX = 5;
export const MEMBER_SEARCH_DEBOUNCE_MS = 200;
export const TOPIC_SEARCH_DEBOUNCE_MS = 150;
/** Members search asks for this page only. */
export const MEMBER_SEARCH_PAGE = 1;
export const INVITE_LIST_MAX_HEIGHT_PX = 200;

// Dialogs and layout
export const SHARE_MODAL_WIDTH_PX = 520;
export const SHARE_MEMBER_LIST_MAX_HEIGHT_PX = 200;
export const DROPDOWN_DEFAULT_WIDTH_PX = 200;
export const CONNECT_BUTTON_WIDTH_PX = 130;
export const SOURCE_LIST_MAX_HEIGHT_PX = 300;
export const FEATURE_REQUEST_MIN_ROWS = 4;
export const FEATURE_REQUEST_MAX_ROWS = 6;
export const SIDE_WINDOW_BREAKPOINT_PX = 1024;
/** Also the minimum width for the help bubble and the custom chatbot. */
export const HELP_BUBBLE_MIN_WIDTH_PX = 1024;
export const SIDEBAR_AUTO_CLOSE_BREAKPOINT_PX = 1175;
export const MOBILE_BREAKPOINT_PX = 768;
export const SCROLL_TO_TOP_AFTER_PX = 900;

// Text truncation
export const SIDEBAR_TOPIC_TITLE_MAX_CHARS = 30;
/** Bot and app names in the sidebar (cut, then an ellipsis). */
export const SIDEBAR_NAME_MAX_CHARS = 20;
export const SOURCE_NAME_MAX_CHARS = 18;
export const POPOVER_TITLE_MAX_CHARS = 20;
export const POPOVER_CONTENT_MAX_CHARS = 20;
export const REFERENCE_TITLE_MAX_CHARS = 20;
export const DISPLAY_NAME_MAX_CHARS = 15;

// Homepage, workflows and onboarding
export const RECOMMENDED_WORKFLOWS_SHOWN = 8;
/** Shared topics and managed-bot conversations loaded per list. */
export const SHARED_CONVERSATIONS_LOADED = 5;
export const HOMEPAGE_APP_ICONS_SHOWN = 3;
export const APP_SUGGESTIONS_SHOWN = 3;
/** The reconnect card lists an app only while its reconnect count is under this. */
export const APP_RECONNECT_COUNT_LIMIT = 2;
export const RECOMMENDED_APPS_MAX = 9;
/** An org's recommended list is used only from this length; shorter, the popular apps are used. */
export const RECOMMENDED_APPS_MIN_LIST = 2;
export const SOCIAL_PROOF_AVATARS = 3;
export const WORK_ROLE_PROMPTS_PER_COLUMN = 3;
export const WORK_ROLE_PROMPT_COLUMNS = 3;
export const PLACEHOLDER_TYPING_START_MS = 90;
export const PLACEHOLDER_TYPING_STEP_MS = 10;
export const PROMO_CUSTOMER_LOGOS = 5;
export const PROMO_APP_ICONS = 5;
export const CAROUSEL_IMAGES = 3;
export const CAROUSEL_DELAY_MS = 3 * SECOND_MS;
export const TOUR_TARGET_WAIT_MS = 10 * SECOND_MS;
export const TOUR_POLL_MS = 500;
export const SETUP_DIALOG_CLOSE_DELAY_MS = 1 * SECOND_MS;

// Uploads and images
export const LOGO_MAX_BYTES = 5242880;
export const CUSTOM_API_ICON_MAX_BYTES = 5242880;
export const UPLOAD_MAX_FILE_BYTES = 1 * GB;
export const UPLOAD_MAX_FILES = 50;
export const UPLOAD_MAX_ZIP_FILES = 1;
export const UPLOAD_AGE_WARNING_DAYS = 30;
export const UPLOAD_AGE_WARNING_MS = UPLOAD_AGE_WARNING_DAYS * DAY_MS;
/** Total chunks of an uploaded file that is not indexed yet. */
export const FILE_NOT_INDEXED_CHUNKS = -1;
export const IMAGE_FALLBACK_MAX_RETRIES = 3;
export const SITE_ICON_TIMEOUT_MS = 5 * SECOND_MS;

// Realtime, sockets and streaming
/** Messages under this size go whole; larger ones in chunks of this size, reassembled by index. */
export const REALTIME_CHUNK_BYTES = 50 * KB;
export const GRAPH_WS_TIMEOUT_MS = 20 * SECOND_MS;
export const STREAM_INACTIVITY_TIMEOUT_MS = 15 * SECOND_MS;
export const DEEP_RESEARCH_STREAM_INACTIVITY_TIMEOUT_MS = 35 * SECOND_MS;
export const RECONNECT_MAX_RETRIES = 2;
export const PENDING_RECONNECTABLE_MAX_AGE_MS = 5 * MINUTE_MS;
export const DEEP_RESEARCH_PENDING_RECONNECTABLE_MAX_AGE_MS = 15 * MINUTE_MS;
export const DEFAULT_RESEARCH_LIMIT = 10;
export const PROGRESS_BAR_START = 5;
export const PROGRESS_BAR_STEP = 15;
export const PROGRESS_BAR_FIRST_JUMP = 50;
export const PROGRESS_BAR_CAP = 90;
export const DEBUG_STAGES_MAX = 100;
export const RELATED_SEARCHES_MAX = 5;
export const LAUNCH_DEEP_LINK_FALLBACK_MS = 500;

// References
export const REFERENCES_SHOWN = 8;
export const SEE_ALL_TILE_APP_ICONS = 3;
export const SEE_ALL_TILE_APP_ICONS_NARROW = 1;
export const SEE_ALL_TILE_COUNT_CAP = 9;
export const REFERENCES_PANEL_HEIGHT_OFFSET_PX = 160;
export const REFERENCES_PANEL_ROW_HEIGHT_PX = 72;
export const REFERENCES_PANEL_MIN_PAGE_SIZE = 10;

/** Page size of the references side panel: as many rows as fit, at least 10. */
export function referencesPanelPageSize(windowHeightPx: number): number {
  const fit = Math.floor(
    (windowHeightPx - REFERENCES_PANEL_HEIGHT_OFFSET_PX) / REFERENCES_PANEL_ROW_HEIGHT_PX,
  );
  return Math.max(REFERENCES_PANEL_MIN_PAGE_SIZE, fit);
}

// Notifications and time display
export const UNREAD_BADGE_CAP = 9;
export const RELATIVE_TIME_JUST_NOW_MS = 60 * SECOND_MS;
export const RELATIVE_TIME_REFRESH_MS = 60 * SECOND_MS;
/** A month in relative times. */
export const RELATIVE_TIME_MONTH_DAYS = 30;
/** 'N days ago' up to this, then a date. */
export const RECENT_DATE_MAX_DAYS = 7;
export const DESKTOP_NOTIFICATION_MAX_DELAY_MS = 1 * SECOND_MS;
export const COPY_CONFIRMATION_MS = 1500;
export const OUTAGE_BANNER_MS = 30 * SECOND_MS;
/** Counts abbreviate with k above this, and with m above COUNT_MILLION_ABOVE. */
export const COUNT_THOUSAND_ABOVE = 999;
export const COUNT_MILLION_ABOVE = 1_000_000;

// Loading
export const LOADING_STILL_MS = 5 * SECOND_MS;
export const LOADING_FAILED_MS = 50 * SECOND_MS;

// Toasts
export const APP_INSTALL_SUCCESS_TOAST_MS = 6000;
/** App install and credential failures. */
export const APP_FAILURE_TOAST_MS = 8000;
export const TOAST_SUCCESS_MS = 3000;
export const TOAST_FAILURE_MS = 4000;
/** 0 means the toast stays until dismissed. */
export const TOAST_STICKY_MS = 0;
export const UNKNOWN_ACCOUNT_NOTICE_MS = 8 * SECOND_MS;

// Network, caches and sessions
export const FETCH_TIMEOUT_MS = 8000;
export const CONNECTIVITY_CHECK_TIMEOUT_MS = 10000;
export const OFFLINE_POLL_MS = 10 * SECOND_MS;
export const POPUP_CLOSED_POLL_MS = 250;
export const AUTH_POPUP_SIGN_OUT_DELAY_MS = 1 * SECOND_MS;
export const AUTOSUGGEST_CACHE_MAX_ENTRIES = 1000;
export const AUTOSUGGEST_CACHE_TTL_MS = 15 * MINUTE_MS;
export const PREVIEW_CACHE_MAX_ENTRIES = 50;
export const PREVIEW_CACHE_TTL_MS = 2 * MINUTE_MS;
export const SEARCH_HISTORY_MAX_ENTRIES = 1000;
/** Refresh the token when less than this remains (20 minutes). */
export const TOKEN_REFRESH_WINDOW_MS = 1_200_000;
export const LOGIN_COOKIE_MAX_AGE_DAYS = 90;
export const LOGIN_COOKIE_MAX_AGE_MS = LOGIN_COOKIE_MAX_AGE_DAYS * DAY_MS;
export const ERROR_TRACE_SAMPLE_RATE = 0.8;
export const NETWORK_ERROR_REPORT_RATE = 0.05;

// Login code: 4 groups of 5 word characters joined by dashes, e.g. abcde-12345-ABCDE-x_y_z.
export const LOGIN_CODE_GROUPS = 4;
export const LOGIN_CODE_GROUP_LENGTH = 5;
export const LOGIN_CODE_PATTERN = /^\w{5}-\w{5}-\w{5}-\w{5}$/;

export function isLoginCode(value: string): boolean {
  return LOGIN_CODE_PATTERN.test(value);
}

// Connectors
export const MINIMAL_INDEX_SYNC_INTERVAL_MS = 24 * HOUR_MS;
export const MINIMAL_INDEX_INITIAL_SYNC_MAX_MS = 24 * HOUR_MS;
export const DIRECTORY_SYNCED_FIELDS = [
  'name',
  'email',
  'title',
  'department',
  'location',
  'managerName',
] as const;

// Search filters: the modified-range values and how far back each reaches.
export const MODIFIED_RANGE_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const;

// Appearance
export const DEFAULT_BACKGROUND_COLOR = '#ffffff';
/** Colour lightness (0–255) above which a background counts as light, and as very light. */
export const LIGHT_COLOUR_LIGHTNESS_ABOVE = 155;
export const VERY_LIGHT_COLOUR_LIGHTNESS_ABOVE = 240;

// AI controls (ours): a disclaimer is a line or two under every answer; instructions and a member's background go
// into every prompt, so they are kept to what a careful person writes, not a pasted document.
export const DISCLAIMER_MAX_CHARS = 500;
export const CUSTOM_INSTRUCTIONS_MAX_CHARS = 4000;
export const PERSONAL_BACKGROUND_MAX_CHARS = 2000;

/** null chatRetentionDays: messages are kept for ever. */
export const NO_CHAT_RETENTION_LIMIT = null;

// Per-member request budgets (issue 11): far above what a person types, a wall for a script. Counted per member
// on each instance, for REST and the chat socket alike.
export const SEARCH_RATE_LIMIT = { max: 60, windowMs: 10 * SECOND_MS } as const;
export const CHAT_QUESTION_RATE_LIMIT = { max: 30, windowMs: MINUTE_MS } as const;
/** Ours: feature requests are written by hand; more than this an hour is a script filling the admins' list. */
export const FEATURE_REQUEST_RATE_LIMIT = { max: 20, windowMs: 60 * MINUTE_MS } as const;
