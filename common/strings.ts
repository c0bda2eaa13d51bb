// Every user-visible string the spec quotes, verbatim, with "the product" rendered as Scout. The app shows
// these and the server sends the ones that travel in error bodies, so tests on either side can match them.
// Templated strings are functions. A few strings the spec describes without quoting are marked "ours".

export const PRODUCT_NAME = 'Scout';

export const shell = {
  LOADING: 'Loading...',
  STILL_LOADING: 'Still loading...',
  // ours: the spec describes the 50-second failure text without quoting it.
  LOADING_FAILED:
    'Scout is taking too long to load. Please check your connection and contact support if this continues.',
  CRASH_TITLE: 'Something went wrong.',
  CRASH_SUBTITLE: 'And we are already on it!',
  TRY_AGAIN: 'Try again',
  GO_TO_HOMEPAGE: 'Go to homepage',
  REDIRECTING: 'Redirecting..',
  OFFLINE: 'Network is offline, Scout cannot perform any searches at the moment.',
  DEFAULT_ERROR: 'Last action failed, please try again.',
  INVALID_DATE: 'Invalid date',
  INVITED_USER: 'Invited User',
  /** Day.js-style format of the public topic page's timestamp. */
  TOPIC_TIMESTAMP_FORMAT: 'MMM D, h:mm a',
  // The public topic page's footer promotion (§2.6): Sign Up signed out, Start a chat for a signed-in member.
  PUBLIC_TOPIC_SIGN_UP: 'Sign Up',
  PUBLIC_TOPIC_START_CHAT: 'Start a chat',
  // Homepage
  HOME_HEADING: 'How may I help you today?',
  MANAGE_WORKSPACE_SETTINGS: 'Manage workspace settings',
  EDIT_HOMEPAGE: 'Edit homepage',
  INSTALL_EXTENSION: 'Install extension',
  CONNECT_MORE_APPS: 'Connect more apps',
  RECONNECT_APPS_CARD: 'Reconnect Apps for accurate answers',
  moreApps: (n: number) => `+${n}`,
  // Sidebar
  MY_TOPICS: 'My topics',
  SHARED_WITH_ME: 'Shared with me',
  SEARCH_TOPICS_PLACEHOLDER: 'Search topics ...',
  INBOX: 'Inbox',
  SETTINGS: 'Settings',
  INVITE: 'Invite',
  SIDEBAR_INSTALL_EXTENSION: 'Install Extension',
  SUPPORT: 'Support',
  CONTACT_US: 'Contact Us',
  VISIT_HELP_CENTER: 'Visit Help Center',
  JOIN_SLACK_COMMUNITY: 'Join Slack Community',
  REQUEST_FEATURE: 'Request Feature',
  EARN_500: 'Earn $500',
  LOGOUT: 'Logout',
  /** The unread badge and tab-title count cap at 9+. */
  unreadCount: (n: number) => (n > 9 ? '9+' : String(n)),
  tabTitlePrefix: (n: number) => (n > 0 ? `(${n > 9 ? '9+' : n}) ` : ''),
  // ours: the outage banner text is described, not quoted.
  OUTAGE_BANNER: 'Scout is having issues right now. Check our status page for updates.',
} as const;

export const auth = {
  // Login screen
  SIGN_IN_HEADING: 'Sign in to Scout',
  TAGLINE: 'Meet your AI knowledge assistant for work',
  WORK_EMAIL: 'Work email',
  EMAIL_PLACEHOLDER: 'Enter your email address ...',
  CONTINUE: 'Continue',
  CONTINUE_WITH_GOOGLE: 'Continue with Google',
  CONTINUE_WITH_EMAIL: 'Continue with email',
  BACK: 'Back',
  NO_ACCOUNT_SIGN_UP: 'No account? Sign up!',
  SSO_FORCED: 'SSO is enabled for your organization, you must login with SSO.',
  SIGN_IN: 'Sign in',
  CODE_SENT: 'We have sent you a temporary login code...',
  CODE_PLACEHOLDER: '00000-00000-00000-00000',
  LOGIN: 'Login',
  INVALID_CODE: 'Invalid code',
  ACCOUNT_DOES_NOT_EXIST: 'Sorry, that account does not exist yet',
  INTERESTED_IN_DEMO: 'Interested in a demo?',
  FIND_A_TIME: 'Find a time',
  BOOK_A_DEMO: 'Book a demo',
  /** An unauthorized message containing this offers the 'Book a demo' button. */
  NOT_CONFIGURED_MARKER: 'not configured',
  // Signup screen
  SIGN_UP_HEADING: 'Sign up on Scout',
  OR: 'or',
  FIRST_NAME: 'First name',
  LAST_NAME: 'Last name',
  SIGN_UP_WITH_EMAIL: 'Sign up with Email',
  ALREADY_HAVE_ACCOUNT: 'Already have an account? Sign in',
  // Signup outcomes
  SIGNUP_SUCCESS: 'Please check your inbox for the login link!',
  SIGNUP_ALREADY_EXISTS: 'This account already exists, please login!',
  SIGNUP_FAILED: 'Scout is not accepting new signups at the moment.',
  CREATE_ACCOUNT: 'Please create an account to get started with Scout',
  ALREADY_ORG_MEMBER: 'Your email address is associated with an organization, please login instead.',
  // Errors
  CODE_INVALID: 'The temporary code you entered was invalid. Please try again.',
  REQUEST_ACCESS: 'Please contact your workspace admin to request access to Scout.',
  CODE_REQUEST_FAILED: 'Failed to send confirmation email, please try again.',
  UNKNOWN_ACCOUNT: "Sorry, we couldn't find an account with that email.",
  // ours: the advice under UNKNOWN_ACCOUNT is described, not quoted.
  UNKNOWN_ACCOUNT_ADVICE:
    'Please make sure you entered a valid work email, and contact your administrator or book a demo.',
  NO_ACCOUNT_REQUEST_ACCESS: 'No account exists. Please request access here.',
  INVALID_CREDENTIALS: 'Invalid or expired credentials.',
  APP_AUTH_FAILED: 'App authentication failed.',
  TOKEN_REFRESH_FAILED: 'Token refresh failed.',
  SSO_NOT_SUPPORTED: 'SSO not supported for this organization',
  CAPTCHA_FAILED: 'CAPTCHA verification failed.',
} as const;

/** The credential names of 'Incorrect {credential name}. Please try again.'; 'API key' unless a dialog says otherwise. */
export const CREDENTIAL_NAMES = {
  apiKey: 'API key',
  credentials: 'credentials',
  accessToken: 'access token',
  personalAccessToken: 'personal access token',
} as const;

export const apps = {
  // Connect menu and dialogs
  CONNECT: 'Connect',
  ADD: 'Add',
  DISCONNECT: 'Disconnect',
  ORG_CONNECTION: 'Org connection',
  INDIVIDUAL_CONNECTION: 'Individual connection',
  GITLAB_ORG_CONNECTION: 'Org connection (Self-Managed)',
  gitlabIndividualConnection: (host: string) => `Individual connection (${host})`,
  // Status badges
  CONNECTING: 'Connecting',
  SYNCING: 'Syncing',
  syncingPercent: (percent: number) => `syncing (${percent}%)`,
  CONNECTED: 'Connected',
  NOT_INDEXING: 'Not indexing',
  RECONNECT: 'Reconnect',
  DISABLING: 'Disabling',
  ERROR: 'Error',
  CONNECTED_BY_ADMIN: 'Your admin has connected the app.',
  CONTACT_ADMIN_TO_RECONNECT: 'Please contact your admin to reconnect the app.',
  // Install and uninstall feedback
  connected: (app: string) => `${app} connected. You can now search ...`,
  startedConnecting: (app: string) => `Started connecting ${app} - we'll let you know when it's complete.`,
  disconnected: (app: string) => `Disconnected ${app}.`,
  failedToDisconnect: (app: string) => `Failed to disconnect ${app}.`,
  /** Permission mismatch (APP_PERMISSION_MISMATCH). */
  failedToInstall: (app: string, message: string) => `Failed to install ${app}: ${message}`,
  failedToInstallUrl: (app: string) => `Failed to install ${app}, please verify the provided URL`,
  failedToInstallConnectionName: (app: string) =>
    `Failed to install ${app}, please verify the provided connection name`,
  failedToInstallCredentials: (app: string) =>
    `Failed to install ${app}, please verify the provided credentials`,
  /** OAuth install failure without an error message of its own (ends with a full stop, unlike the above). */
  oauthInstallFailed: (app: string) => `Failed to install ${app}, please verify the provided credentials.`,
  incorrectCredential: (credentialName: string = CREDENTIAL_NAMES.apiKey) =>
    `Incorrect ${credentialName}. Please try again.`,
  UNIQUE_CONNECTION_NAME: 'Please enter a unique connection name.',
  /** Not in the spec, whose dialog refuses a larger icon before sending; the server says why it refuses one. */
  ICON_TOO_LARGE: 'The icon must be 5 MB or smaller.',
  VALID_URL: 'Please enter a valid URL.',
  POPUP_BLOCKED: 'Unable to connect, please check your popup blocker.',
  /** Ours: the spec requires a marketplace org connect's email to be on the org's domain without wording it. */
  marketplaceEmailDomain: (domain: string) =>
    `Use the email address of an administrator at ${domain}, your organisation's domain.`,
  CHROME_ONLY: "Scout's extension is only supported on Chrome. Please use Chrome to install the extension.",
  // Tooltips and paywall
  UNABLE_TO_ADD: 'You are unable to add this app.',
  ONE_HRIS_APP:
    'Only one HRIS app is able to be connected at a time. Please disconnect the connected HRIS app in order to connect this app.',
  oneConnectionAllowed: (app: string) => `Only one ${app} connection is allowed at a time.`,
  NO_INDIVIDUAL_CONNECTIONS: 'No Individual connections allowed for this app',
  NO_ORG_CONNECTION: 'No org-wide connection available for this app',
  UPGRADE_ORG_WIDE: 'Upgrade to enable org-wide app connections',
  ONE_ORG_CONNECTION: 'Only 1 Org connection allowed for this app',
  // Model picker and search scope
  SELECT_LLM: 'Select LLM',
  SCOPE_APPS: 'Apps',
  SCOPE_WEB: 'Web',
  SCOPE_AI_ONLY: 'AI Only',
  SELECT_ALL: 'Select all',
  CLEAR_ALL: 'Clear all',
  SPECIFY_SOURCES: 'Specify sources',
  CANCEL: 'Cancel',
  SAVE: 'Save',
} as const;

export const topics = {
  FAILED_TO_LOAD_MEMBERS: 'Failed to load members',
  failedToAddMember: (email: string) => `Failed to add member: ${email}`,
  FAILED_TO_COPY_LINK: 'Failed to copy link',
  COPIED_LINK: 'Copied link to clipboard',
  FAILED_TO_FETCH_MESSAGES: 'Failed to fetch messages, please try again later',
  FAILED_TO_UPDATE_TITLE: 'Failed to update topic title.',
  FAILED_TO_DELETE: 'Failed to delete topic.',
  DELETED: 'Topic deleted.',
  OWNER: 'Owner',
  CAN_EDIT: 'Can edit',
  START_NEW_TOPIC: 'Start new topic',
  RESUME_PREVIOUS_TOPIC: 'Resume previous topic',
  /** A message action (asking-questions §2): carries on in that message's topic. */
  CONTINUE_TOPIC: 'Continue Topic',
  researchFailed: (topic: string) => `Something went wrong — research for ${topic} couldn't be finished.`,
  researchReady: (topic: string) => `Research on ${topic} is ready.`,
} as const;

export const bookmarks = {
  MY_BOOKMARKS: 'My bookmarks',
  COMPANY_BOOKMARKS: 'Company bookmarks',
  REORDER_ERROR: 'There was an error reordering your bookmark. Please try again',
  CREATE_ERROR: 'There was an error creating your bookmark. Please try again',
  DELETE_ERROR: 'There was an error deleting your bookmark. Please try again',
  COMPANY_CREATED: 'Company bookmark created.',
  PERSONAL_CREATED: 'Personal bookmark created.',
  COMPANY_DELETED: 'Company bookmark deleted.',
  PERSONAL_DELETED: 'Personal bookmark deleted.',
} as const;

export const feedback = {
  SEND_ERROR: 'There was an error sending feedback. Please try again.',
  SAVED: "We've saved your feedback to improve Scout for your team.",
  UNDO_ERROR: 'Error undoing upvote or downvote. Please try again.',
  UPVOTE_REMOVED: 'Upvote removed.',
  DOWNVOTE_REMOVED: 'Downvote removed.',
  FEATURE_REQUEST_SENT: 'Feature Request sent to the team',
} as const;

export const invites = {
  INVITE: 'Invite',
  RESEND_INVITE: 'Resend invite',
  FAILED_TO_INVITE: 'Failed to invite members',
  FAILED_TO_SEND: 'Failed to send invites',
  FAILED_TO_RESEND: 'Failed to resend invites',
  INVITED: 'Invited members successfully',
  RESENT: 'Resent invites successfully',
} as const;

export const inbox = {
  ALL: 'All',
  UNREAD: 'Unread',
  READ: 'Read',
  MARK_ALL_AS_READ: 'Mark all as read',
  MARKED_ALL_AS_READ: 'Marked all notifications as read',
  EMPTY_ALL: "You have no notifications. You'll see them here once you have some.",
  EMPTY_UNREAD: "You have no unread notifications. You're all caught up!",
  EMPTY_READ: 'You have no read notifications.',
  JUST_NOW: 'just now',
} as const;

/**
 * Ours: what the inbox, its emails, desktop notifications and the preferences screen say where the spec does not
 * quote them. An item's line is markdown; `who` and `topic` arrive already escaped and in bold.
 */
export const inboxCopy = {
  taggedYou: (who: string, topic: string) => `${who} tagged you in ${topic}`,
  addedYou: (who: string, topic: string) => `${who} added you to ${topic}`,
  wroteIn: (who: string, topic: string) => `${who} wrote in ${topic}`,
  askedBot: (who: string, bot: string) => `${who} asked ${bot} a question`,
  UNTITLED_TOPIC: 'an untitled topic',
  SOMEONE: 'Someone',
  OPEN_TOPIC: 'Open the topic',
  emailFooter: (settingsUrl: string) =>
    `You get these emails because of your notification preferences: ${settingsUrl}`,
  PANEL_TITLE: 'Inbox',
  CLOSE: 'Close inbox',
  LOAD_MORE: 'Load more',
  unreadLabel: (n: number) => `${n} unread`,
  // relative times (spec §9: 'just now' under 60 s, then minutes … years, a month being 30 days)
  minutesAgo: (n: number) => `${n} ${n === 1 ? 'minute' : 'minutes'} ago`,
  hoursAgo: (n: number) => `${n} ${n === 1 ? 'hour' : 'hours'} ago`,
  daysAgo: (n: number) => `${n} ${n === 1 ? 'day' : 'days'} ago`,
  weeksAgo: (n: number) => `${n} ${n === 1 ? 'week' : 'weeks'} ago`,
  monthsAgo: (n: number) => `${n} ${n === 1 ? 'month' : 'months'} ago`,
  yearsAgo: (n: number) => `${n} ${n === 1 ? 'year' : 'years'} ago`,
  // the preferences screen
  PREFERENCES_TITLE: 'Notification preferences',
  PREFERENCES_INTRO: 'Choose how Scout tells you about activity in your topics.',
  CHANNEL_IN_APP: 'In-app',
  CHANNEL_EMAIL: 'Email',
  CHANNEL_DESKTOP: 'Desktop',
  KIND_TAGGED_USERS: 'When someone tags you',
  KIND_BOT_ADMINS: 'When someone asks a bot you manage',
  KIND_NEW_MSGS: 'New messages in shared topics',
  KIND_USER_ADDED_TO_TOPIC: 'When someone adds you to a topic',
  KIND_RESEARCH: 'When your research is finished',
  DESKTOP_PUSH_DISABLED: 'Pause all desktop notifications',
  DESKTOP_PERMISSION_DENIED: 'Your browser blocks notifications from Scout. Allow them in its site settings.',
  SAVE: 'Save preferences',
  SAVED: 'Notification preferences saved',
  SAVE_FAILED: 'Could not save your notification preferences. Please try again.',
  LOAD_FAILED: 'Could not load your notification preferences.',
} as const;

export const chat = {
  TIMEOUT: 'A timeout occurred while reading response, please reload the page and try again',
  STREAMING_ERROR: 'Error in streaming the response',
  GENERATION_FAILED: 'Error while generating answer! Please try again.',
  /** The limit defaults to 10 when the server does not say. */
  researchLimit: (resetTime: string, limit?: number | null) =>
    `You've hit the limit of ${limit ?? 10} Research requests for now. You can start a new request after ${resetTime}...`,
  TOKENS_NOT_FOUND: 'Tokens not found',
  WAIT_FOR_CURRENT_ANSWER: 'Please wait for the current answer to finish generating',
  ALREADY_ON_NEW_TOPIC: 'Already on a new topic',
  STOPPED: 'Your request has been stopped. Feel free to ask another question at any time!',
  /** Ours: shown instead of an answer that draws on sources the reader may not read. */
  ANSWER_WITHHELD: 'This answer is hidden because it draws on sources you do not have access to.',
  SEND_MESSAGE_ERROR: 'Error sending message. Please try again',
  PROCESSING_ERROR: 'Error processing request. Please try again',
  COPIED: 'Copied',
  COPIED_TEXT: 'Copied text to clipboard',
  COPIED_TEXT_AND_REFERENCES: 'Copied text and references to clipboard',
  FAILED_TO_COPY: 'Failed to copy to clipboard!',
  IMAGE_SAVE_ERROR: 'There was a problem saving your image. Please try again.',
  imageSaved: (subject: string) => `${subject} saved.`,
  // Stage labels of the answer stream.
  UNDERSTANDING_QUESTION: 'Understanding question...',
  BUILDING_PROMPT: 'Building prompt...',
  GATHERING_DATA: 'Gathering Data...',
  ANSWERING: 'Answering...',
  RESEARCHING: 'Researching...',
  // Onboarding message
  WELCOME: 'Welcome to Scout',
  CONNECT_ALL_APPS: 'Connect all the apps you use at work',
  TRY_USE_CASES: 'Try these popular use cases or discover your own',
  BRING_INTO_WORKFLOWS: 'Bring Scout into your existing workflows',
  ASK_QUESTIONS: 'Ask Questions',
  ASK_IN_SLACK_DM: 'Ask in Slack DM',
  ADD_SLACKBOT: 'Add Slackbot to channels',
  ACCESS_FROM_HOMEPAGE: 'Access from homepage',
  EMBED_ANYWHERE: 'Embed anywhere',
  LEARN: 'Learn',
  CREATE: 'Create',
  VIEW_ALL: 'View all',
  UNDERSTAND: 'Understand',
  FIND: 'Find',
} as const;

export const settings = {
  FAILED_TO_FETCH_AI_CONTROLS: 'Failed to fetch AI controls',
  FAILED_TO_UPDATE_DISCLAIMER: 'Failed to update disclaimer',
  UPDATED_DISCLAIMER: 'Successfully updated disclaimer',
  FAILED_TO_UPDATE_CUSTOM_INSTRUCTIONS: 'Failed to update custom instructions',
  UPDATED_CUSTOM_INSTRUCTIONS: 'Successfully updated custom instructions',
  DATA_EXPORT_CONFLICT: 'Data export has already been requested or completed for this user.',
} as const;

/** Ours: the 400s of the AI controls (common/api/ai-controls.ts) when a text is over its limit. */
export const aiControlsValidation = {
  tooLong: (name: string, max: number) => `${name} must be at most ${max} characters`,
} as const;

export const workflows = {
  FETCH_ALL_ERROR: 'Error fetching workflows',
  FETCH_ONE_ERROR: 'Error fetching workflow',
  /** A message action (asking-questions §2). */
  SAVE_AS_WORKFLOW: 'Save as workflow',
  /** The question input's control (asking-questions §2). */
  VIEW_WORKFLOWS: 'View workflows',
} as const;

export const bots = {
  FETCH_ERROR: 'Failed to fetch bots',
  CREATED: 'Bot created successfully',
  NAME_EXISTS: 'Bot with same name already exists',
  CREATE_ERROR: 'Failed to create bot',
  DELETED: 'Bot deleted successfully',
  DELETE_ERROR: 'Failed to delete bot',
  UPDATED: 'Bot updated successfully',
  UPDATE_ERROR: 'Failed to update bot',
  DELETED_BOT_TOOLTIP: 'This bot has been deleted.',
} as const;

export const files = {
  FETCH_ERROR: 'Failed to fetch files',
  // The spec writes "Uploading {n} Files or File": the noun follows the count.
  uploading: (n: number) => `Uploading ${n} ${n === 1 ? 'File' : 'Files'}. Please keep tab open`,
  UPLOADED: 'Successfully uploaded',
  UPLOAD_ERROR: 'Failed to upload files',
  DELETED: 'File deleted successfully',
  DELETE_ERROR: 'Failed to delete file',
  fileTooLarge: (file: string) => `Failed to upload file: ${file}. File size is too large. Max size is 1GB.`,
  /** The server's 400 message for a file with no text. */
  NO_CONTENT_PARSED: 'No content was parsed from the file.',
  // ours: what the user sees for NO_CONTENT_PARSED is described, not quoted.
  emptyDocument: (file: string) => `${file} appears to be empty or could not be parsed.`,
  // ours: the 30-day age warning tooltip is described, not quoted.
  AGE_WARNING:
    'Files uploaded more than 30 days ago are no longer available. Start a new chat to use them again.',
  // ours: the files screen's labels are not quoted by the spec.
  TITLE: 'Files',
  UPLOAD_FILES: 'Upload files',
  UPLOAD_ZIP: 'Upload zip',
  EMPTY: 'No files yet. Upload documents to search them and ask questions about them.',
  INDEXING: 'Indexing...',
  chunks: (n: number) => `${n} ${n === 1 ? 'chunk' : 'chunks'}`,
  VISIBILITY_PRIVATE: 'Only me',
  VISIBILITY_ORG: 'Everyone in the workspace',
  DELETE: 'Delete',
  CANCEL: 'Cancel',
  deleteConfirm: (file: string) => `Delete ${file}? It will no longer be found in search or answers.`,
} as const;

/** Why a request was refused by the rules every payload obeys (common/api/input.ts); invented, the spec has none. */
export const input = {
  CONTROL_CHARACTERS: 'must not contain control characters',
  TOO_DEEP: 'is nested too deeply',
  UNKNOWN_FIELD: 'has a field that is not accepted',
  DATE_OUT_OF_RANGE: 'must be a date between the years 1000 and 9999',
  HTTP_LINK_ONLY: 'must be an http or https link',
  BAD_ADDRESS: 'The request address is not valid.',
} as const;

export const validation = {
  EMAIL_REQUIRED: 'Email is required',
  INVALID_EMAIL: 'Invalid email',
  INVALID_CODE: 'Invalid code',
  invalidUrl: (host: string) => `Invalid URL, must be of format ${host}`,
  DUPLICATE_BOOKMARK_TITLE: 'This title already exists, please choose a different one.',
  LOGO_MUST_BE_SQUARE: 'Logo must be square',
  INVALID_EMAIL_ADDRESS: 'Invalid email address',
  DOMAIN_NOT_ALLOWED: 'Domain not allowed',
  WAIT_FOR_PREVIOUS_ANSWER: 'Please hold on while we generate an answer for your previous query.',
  TOO_MANY_REQUESTS: 'Too many requests. Please wait a few seconds and try again.',
  CONNECT_APPS_FOR_APPS_MODE: 'Please connect some apps to use the Apps mode.',
  SELECT_SOURCES: 'Please select some sources from the Apps tab and try again.',
  RESEARCH_NO_ATTACHED_FILES: "Research doesn't support attached files. Please remove them and try again!",
  RESEARCH_NO_AI_ONLY_BOT:
    "Bots with AI only mode aren't supported in Research. Please switch to another bot to continue!",
  RESEARCH_NO_AI_ONLY:
    "AI-only mode isn't supported in Research. Please switch to Apps or Web mode to continue!",
  WAIT_FOR_FILE_UPLOAD: 'Please wait for the file upload to complete and try again.',
  tooManyFiles: (n: number) => `You can only upload ${n} file(s) at a time.`,
  FILE_TYPES_NOT_SUPPORTED: 'file type(s) not supported',
  unsupportedFileTypes: (extensions: readonly string[]) =>
    `${extensions.join(', ')} file type(s) not supported`,
  WAIT_FOR_CURRENT_UPLOAD: 'Please wait for the current file(s) to upload.',
  UNIQUE_CONNECTION_NAME: apps.UNIQUE_CONNECTION_NAME,
  VALID_URL: apps.VALID_URL,
  CAPTCHA_FAILED: auth.CAPTCHA_FAILED,
  TOKENS_NOT_FOUND: chat.TOKENS_NOT_FOUND,
} as const;

// Google connectors (Gmail, Calendar, Drive, the Workspace directory): text of ours, the spec has none for these.
export const google = {
  /** The title of a mail thread whose first message has no subject. */
  NO_SUBJECT: '(no subject)',
  /** The title of a calendar event with no title. */
  NO_EVENT_TITLE: '(no title)',
  /** Completes 'Failed to install {app}: {message}'. */
  ADMIN_REQUIRED: 'The connecting account must be a Google Workspace admin.',
  /** Completes 'Failed to install {app}: {message}' when the account did not grant every scope asked for. */
  SCOPE_MISSING:
    'Scout was not granted all the access it asked for. Please connect again and approve every item.',
  /** Completes 'Failed to install {app}: {message}' when the org connection's delegation is missing a scope. */
  DELEGATION_REQUIRED:
    "Scout's service account has not been granted domain-wide delegation with every scope it needs. A super admin can add its client ID and scopes in the Google Admin console.",
} as const;

/** Connector messages the spec does not word (ours), shown after 'Failed to install {app}: ' or as a status. */
export const connectorMessages = {
  SLACK_MISSING_SCOPE:
    'The Slack app lacks a permission Scout needs; reinstall it to grant the requested scopes.',
} as const;

/** Microsoft 365 connectors (Outlook, Teams, SharePoint, OneDrive): the spec gives no text for these, so they are ours. */
export const microsoft = {
  /** Completes 'Failed to install {app}: {message}' when the account refused a permission the app asks for. */
  MAIL_ACCESS_NEEDED: 'Scout needs permission to read the mailbox (Mail.Read).',
  TEAMS_ACCESS_NEEDED: 'Scout needs permission to read Teams channels and chats.',
  /** The title of a message or chat without a subject. */
  NO_SUBJECT: '(no subject)',
  /** The title of a Teams chat without a topic, naming its participants. */
  chatWith: (names: readonly string[]) => `Chat with ${names.join(', ')}`,
  /** The org connection runs on the tenant's admin consent (SharePoint, OneDrive). */
  ADMIN_CONSENT_REQUIRED:
    'An Azure Global Administrator must grant Scout admin consent in your Microsoft 365 tenant.',
} as const;

/** Notion's install failures of our own (the spec has none); each completes 'Failed to install Notion: {message}'. */
export const notion = {
  USER_INFO_REQUIRED:
    'the integration must be allowed to read user information including email addresses, so Scout can tell members from guests.',
} as const;

/** An app's page for admins: each connection's sync details (the spec has no words for these; ours). */
export const connectionDetails = {
  TITLE: 'Sync details',
  CONNECTION: 'Connection',
  LAST_SYNC: 'Last sync',
  ITEMS: 'Items',
  LAST_ERROR: 'Last error',
  NEVER: 'Never',
  NONE: 'None',
} as const;

/** The authorization page of a vendor's fake in the SCOUT_FAKE_VENDORS=1 dev mode (ours; no vendor's words). */
export const fakeVendors = {
  allowTitle: (vendor: string) => `Fake ${vendor}: allow Scout?`,
  allowExplanation: (vendor: string) =>
    `This is not ${vendor}: Scout's development mode runs a fake of it on this machine. Allowing connects Scout to its made-up workspace.`,
  ALLOW: 'Allow',
  /** Ours: the fake admin-consent page's refusal, so tests and a person trying dev mode can decline. */
  DENY: 'Deny',
} as const;

/**
 * Ours (issue 13: Web and AI Only say what they will do before the question is sent): the line under the scope
 * tabs. The two refusals are the texts the server answers with when asked anyway.
 */
export const scopeNotices = {
  WEB: 'Web answers from web search results: your apps and files are not searched.',
  AI_ONLY: 'AI Only answers from the model alone: your apps, files and the web are not searched.',
  NO_MODEL_FOR_AI_ONLY:
    'No AI model is configured on this Scout server, so AI Only mode cannot answer. Switch to Apps or Web to get the most relevant passages instead.',
  WEB_SEARCH_NOT_CONFIGURED:
    'Web search is not configured on this Scout server. Ask your admin to set WEB_SEARCH_API_KEY, or switch to Apps or AI Only.',
} as const;

/** Ours: the homepage's bookmark dialog and its limits, and the workflow chips' empty state (spec §2.7, §5). */
export const homeBookmarks = {
  ADD_BOOKMARK: 'Add bookmark',
  TITLE_LABEL: 'Title',
  TITLE_PLACEHOLDER: 'e.g. Team handbook',
  LINK_LABEL: 'Link',
  SAVE: 'Save',
  CANCEL: 'Cancel',
  deleteLabel: (title: string) => `Delete ${title}`,
  /** The tooltip of a bookmark its reader may reorder: the mouse drags, the keyboard moves with Alt and an arrow. */
  reorderHint: (link: string) => `${link} · drag, or Alt+← / Alt+→, to reorder`,
  NO_PERSONAL_BOOKMARKS: 'Add the links you open every day.',
  NO_COMPANY_BOOKMARKS: 'Add links everyone in your workspace should have at hand.',
  TITLE_REQUIRED: 'Title is required',
  titleTooLong: (max: number) => `Title must be at most ${max} characters`,
  linkTooLong: (max: number) => `Link must be at most ${max} characters`,
  tooManyBookmarks: (max: number) => `A list holds at most ${max} bookmarks.`,
  WORKFLOWS_EMPTY: 'Recommended workflows will appear here once your workspace has some.',
} as const;

/** Ours: the code stage on a development server without SMTP_URL (issue 14, first run). */
export const devSignIn = {
  CODE_IN_SERVER_CONSOLE:
    'No mail server is set up, so your code was written to the Scout server console: look for "login code for".',
} as const;
