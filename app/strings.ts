// Labels of the app's own screens that the spec describes without quoting ("ours"). The quoted strings live in
// common/strings.ts and are used from there; nothing here repeats one of them.
import type { AdminFlag } from '../common/flags';

export const loginCopy = {
  SIGNING_IN: 'Signing you in...',
  CODE_LABEL: 'Login code',
  /** Under the code-sent text: which address the code went to. */
  codeSentTo: (email: string) => `Check ${email} for a mail from Scout and paste the code here.`,
  SIGN_UP: 'Sign up',
  TERMS: "By continuing, you acknowledge Scout's Terms of Service and Privacy Policy.",
  SIDE_PANEL_SIGN_IN: 'Sign in to Scout in a new tab, then come back here.',
} as const;

/** The carousel beside the sign-in and sign-up forms (spec §2.4: three images, 3 s, looping). */
export const carouselSlides = [
  {
    title: 'Search every app at once',
    text: 'One question finds the answer across the tools your team uses.',
  },
  {
    title: 'Answers you can trust',
    text: 'Every answer cites the documents, messages and tickets it came from.',
  },
  { title: 'Work it out together', text: 'Share topics with colleagues and pick up where they left off.' },
] as const;

export const sidebarCopy = {
  KNOWLEDGE: 'Knowledge',
  APPS: 'Apps',
  FILES: 'Files',
  ANSWERS: 'Answers',
  BOTS: 'Bots',
  WORKFLOWS: 'Workflows',
  WORKSPACE: 'Workspace',
  PERSONAL: 'Personal',
  GENERAL: 'General',
  AI_CONTROLS: 'AI Controls',
  MEMBERS: 'Members',
  DIRECTORY_SYNC: 'Directory Sync',
  ANALYTICS: 'Analytics',
  SECURITY: 'Security',
  API_KEYS: 'API Keys',
  BILLING: 'Billing',
  NOTIFICATIONS: 'Notifications',
  BROWSER_EXTENSION: 'Browser Extension',
} as const;

/** Ours: the shell's sidebar controls, the Support menu and the feature-request dialog (spec §2.8, §2.10, §5). */
export const sidebarLayoutCopy = {
  OPEN_SIDEBAR: 'Open sidebar',
  CLOSE_SIDEBAR: 'Close sidebar',
  SCROLL_TO_TOP: 'Back to top',
  FEATURE_REQUEST_TITLE: 'Request a feature',
  FEATURE_REQUEST_LABEL: 'What should Scout do for you?',
  FEATURE_REQUEST_PLACEHOLDER: 'Describe the feature and the problem it would solve ...',
  SUBMIT: 'Submit',
  CANCEL: 'Cancel',
} as const;

export const inviteCopy = {
  DIALOG_TITLE: 'Invite members',
  SEARCH_LABEL: 'Email addresses',
  SEARCH_PLACEHOLDER: 'Type a name or an email address ...',
  addAsNew: (email: string) => `Invite ${email}`,
  SEND: 'Send invites',
  ROLE_MEMBER: 'Member',
  ROLE_ADMIN: 'Admin',
  REMOVE: 'Remove',
  roleOf: (email: string) => `Role of ${email}`,
  EMPTY: 'Add people by their work email. They get a link to sign in.',
} as const;

export const membersCopy = {
  TITLE: 'Members',
  SEARCH_PLACEHOLDER: 'Search by name or email ...',
  STATUS_FILTER: 'Status',
  ALL_STATUSES: 'All statuses',
  INVITE_MEMBERS: 'Invite members',
  totals: (total: number, pending: number) =>
    `${total} ${total === 1 ? 'member' : 'members'} · ${pending} not signed up yet`,
  NAME: 'Name',
  ROLE: 'Role',
  STATUS: 'Status',
  ACTIONS: 'Actions',
  NO_MEMBERS: 'No members match.',
  LOAD_FAILED: 'Failed to load members',
  YOU: 'you',
  MAKE_ADMIN: 'Make admin',
  REMOVE_ADMIN: 'Remove admin',
  BLOCK: 'Block',
  UNBLOCK: 'Unblock',
  DELETE: 'Delete',
  CANCEL: 'Cancel',
  confirmTitle: (action: string, who: string) => `${action}: ${who}`,
  confirmText: {
    make_admin: (who: string) => `${who} will be able to manage the workspace, its members and its settings.`,
    remove_admin: (who: string) => `${who} will no longer be able to manage the workspace.`,
    block: (who: string) => `${who} will be signed out and will not be able to sign in until unblocked.`,
    unblock: (who: string) => `${who} will be able to sign in again.`,
    delete: (who: string) => `${who} will be removed from the workspace and signed out.`,
  },
  actionDone: (action: string, who: string) => `${action}: ${who}`,
} as const;

export const MEMBER_STATUS_LABELS = {
  SIGNED_UP: 'Active',
  INVITED: 'Invited',
  CREATED: 'Not signed in yet',
  BLOCKED: 'Blocked',
  DELETED: 'Deleted',
} as const;

export const setupCopy = {
  DIALOG_TITLE: "Let's get you set up",
  DIALOG_INTRO: 'A few questions so Scout can suit the way you work.',
  WORK_ROLE: 'What do you work on?',
  REFERRAL_SOURCE: 'How did you hear about Scout?',
  REFERRAL_OTHER: 'Where did you hear about Scout?',
  CHOOSE: 'Choose one',
  COMPANY_NAME: 'Company name',
  LOGO: 'Company logo',
  LOGO_HINT: 'A square PNG, JPEG or WebP image, up to 5 MB.',
  UPLOAD_LOGO: 'Upload logo',
  REMOVE_LOGO: 'Remove',
  YOUR_WORKSPACE: 'Your workspace',
  INVITE_TEAM: 'Invite your team',
  DONE: 'Done',
  ALL_SET: "You're all set!",
  SAVE_FAILED: 'Your answers could not be saved. Please try again.',
  WORKSPACE_TITLE: 'Set up your workspace',
  WORKSPACE_INTRO: 'Tell your colleagues which workspace they are joining.',
  CONTINUE: 'Continue',
  WAITING_FOR_ADMIN: 'Your workspace admin is still setting up Scout. Please check back soon.',
  CHECK_AGAIN: 'Check again',
} as const;

export const WORK_ROLE_LABELS = {
  engineering: 'Engineering',
  customer_support: 'Customer support',
  sales: 'Sales',
  marketing: 'Marketing',
  product_management: 'Product management',
  hr: 'HR',
  legal_compliance: 'Legal and compliance',
  talent: 'Talent',
  other: 'Other',
} as const;

export const REFERRAL_SOURCE_LABELS = {
  search_engine: 'Search engine',
  social_media: 'Social media',
  newsletter: 'Newsletter',
  another_ai_tool: 'Another AI tool',
  online_ads: 'Online ads',
  other: 'Other',
} as const;

export const imageCopy = {
  TOO_LARGE: 'Images must be at most 5 MB.',
  NOT_AN_IMAGE: 'Choose a PNG, JPEG or WebP image.',
  PHOTO_NOT_AN_IMAGE: 'Choose a PNG, JPEG, WebP or GIF image.',
  UNREADABLE: 'This image could not be read.',
} as const;

export const mySettingsCopy = {
  TITLE: 'Personal settings',
  PROFILE: 'Profile',
  DISPLAY_NAME: 'Display name',
  EMAIL: 'Email',
  PHOTO: 'Photo',
  UPLOAD_PHOTO: 'Upload photo',
  REMOVE_PHOTO: 'Remove photo',
  PHOTO_HINT: 'PNG, JPEG, WebP or GIF, up to 5 MB.',
  SAVE: 'Save',
  SAVED: 'Profile saved.',
} as const;

/** The admin's General settings (/admin/appearance): the workspace's name and logo, and its feature switches. */
export const workspaceSettingsCopy = {
  TITLE: 'Workspace settings',
  WORKSPACE: 'Workspace',
  COMPANY_NAME: 'Company name',
  LOGO: 'Logo',
  LOGO_HINT: 'A square PNG, JPEG or WebP image, up to 5 MB.',
  UPLOAD_LOGO: 'Upload logo',
  REMOVE_LOGO: 'Remove logo',
  SAVE: 'Save',
  SAVED: 'Workspace settings saved.',
  FEATURES: 'Features',
  FEATURES_HINT: 'Switch features on or off for everyone in the workspace. Changes apply at once.',
  SHARING: 'Sharing and invitations',
  PUBLIC_TOPICS: 'Public links',
  PUBLIC_TOPICS_HINT: 'Members may share a topic with anyone who has its link, signed in or not.',
  AUTO_INVITE: 'Invite colleagues automatically',
  AUTO_INVITE_HINT:
    'People who sign in with an address at your domain join the workspace without an invitation.',
  switched: (label: string, on: boolean) => `${label} ${on ? 'switched on' : 'switched off'}.`,
} as const;

/** Each switch an admin has (common/flags.ts ADMIN_FLAGS): what it is called and what it does. */
export const ADMIN_FLAG_COPY: Record<AdminFlag, { label: string; hint: string }> = {
  multiplayerEnabled: {
    label: 'Shared topics',
    hint: 'Tag colleagues in a topic and share it with them; shows Shared with me.',
  },
  notifications: { label: 'Inbox', hint: 'Notifications when someone tags you or adds you to a topic.' },
  realtimeMultiplayer: {
    label: 'Live shared topics',
    hint: 'Everyone in a shared topic sees new questions and answers as they arrive.',
  },
  answers: { label: 'Verified answers', hint: 'Answers your team has checked, searched and cited first.' },
  deepresearch: { label: 'Research', hint: 'Longer answers that search several times before they reply.' },
  apiKeysEnabled: { label: 'API keys', hint: 'Keys for programs that push documents to Scout.' },
  inAppTour: { label: 'Guided tour', hint: 'A short tour of the chat screen for new members.' },
  hideRelatedSearches: { label: 'Hide related searches', hint: 'No follow-up suggestions under answers.' },
  aiOnlyDisabled: {
    label: 'Turn off AI only',
    hint: 'Every answer searches your apps; no model-only answers.',
  },
  chatReconnect: {
    label: 'Resume dropped answers',
    hint: 'An answer whose connection dropped picks up where it stopped.',
  },
  reconnectAppsCard: {
    label: 'Reconnect reminders',
    hint: 'A homepage card when an app of yours needs reconnecting.',
  },
  homepageConfiguration: {
    label: 'Homepage shortcuts',
    hint: 'Round buttons on the homepage to these settings or your own.',
  },
  appSpecificFiltersEnabled: {
    label: 'Specify sources',
    hint: 'Narrow a question to chosen Confluence spaces, Drive folders, Notion pages or Slack channels.',
  },
  debugLogs: { label: 'Answer debug logs', hint: 'Admins see how each answer was searched and built.' },
};

/** Why a model cannot be used, in the model picker and on /admin/ai-controls (ours). */
export const modelReasonCopy = {
  NEEDS_KEY: 'Needs an API key on the server',
  NEEDS_KEY_HINT: 'Whoever runs Scout can add the provider’s key to turn these on.',
  TURNED_OFF: 'Turned off for your workspace',
  TURNED_OFF_HINT: 'A workspace admin can turn these on in AI Controls.',
  UPGRADE: 'Upgrade to choose',
  DEFAULT: 'Default',
  needsPlan: (plan: string) => `Needs the ${plan} plan`,
} as const;

/** /admin/ai-controls and /my-ai-controls (ours; the toasts are the spec's, in common/strings.ts settings). */
export const aiControlsCopy = {
  DISCLAIMER: 'Disclaimer',
  DISCLAIMER_HINT: 'Shown in small print under every answer, and the assistant never contradicts it.',
  DISCLAIMER_PLACEHOLDER: 'e.g. Answers are generated by AI and can be wrong. Check the sources.',
  CUSTOM_INSTRUCTIONS: 'Custom instructions',
  CUSTOM_INSTRUCTIONS_HINT: 'Given to the assistant with every question anyone in the workspace asks.',
  CUSTOM_INSTRUCTIONS_PLACEHOLDER: 'e.g. Answer in British English. Our fiscal year starts in April.',
  MODELS: 'Models',
  MODELS_HINT:
    'Choose which models members may pick. A model this server has no API key for cannot run until one is added.',
  SAVE: 'Save',
  planNeeded: (plan: string) => `Available on the ${plan} plan.`,
  MY_TITLE: 'My AI Controls',
  PERSONAL_BACKGROUND: 'About you',
  PERSONAL_BACKGROUND_HINT:
    'Who you are, what you work on and how you like answers. Only your own questions use it.',
  PERSONAL_BACKGROUND_PLACEHOLDER:
    'e.g. I lead the payments team. Keep answers short, with links to the sources.',
  PERSONAL_SAVED: 'Saved. Your next answers will use it.',
  PERSONAL_SAVE_FAILED: 'Failed to save your background. Please try again.',
} as const;

/** The chat screens (asking-questions §2–§4): labels the spec names without quoting. */
export const chatCopy = {
  SCREEN_TITLE: 'Chat',
  INPUT_PLACEHOLDER: 'Ask anything about your work ...',
  INPUT_LABEL: 'Your question',
  SEND: 'Send',
  STOP: 'Stop generating',
  NEW_TOPIC: 'New topic',
  SCOPE_LABEL: 'Search scope',
  CHOOSE_SOURCES: 'Choose sources',
  SOURCE_FILES: 'Files',
  SOURCE_ANSWERS: 'Verified answers',
  sourceDocuments: (n: number) => (n === 1 ? '1 document you can search' : `${n} documents you can search`),
  sourcesSelected: (n: number, total: number) => (n === total ? 'All sources' : `${n} of ${total} sources`),
  EXTRACTIVE_MODEL: 'No model configured: answers quote your documents',
  RESEARCH: 'Research',
  counterTooltip: (limit: number) => `Scout works best with questions under ${limit} characters.`,
  YOU: 'You',
  ASSISTANT: 'Scout',
  COPY: 'Copy',
  THUMBS_UP: 'Good answer',
  THUMBS_DOWN: 'Bad answer',
  FEEDBACK_TITLE: 'Share feedback',
  FEEDBACK_POSITIVE: 'What did you like about this answer? (optional)',
  FEEDBACK_NEGATIVE: 'What was wrong with this answer?',
  FEEDBACK_SUBMIT: 'Submit feedback',
  FEEDBACK_REFERENCES: 'Were the references useful?',
  referenceUseful: (title: string) => `Useful: ${title}`,
  referenceNotUseful: (title: string) => `Not useful: ${title}`,
  CANCEL: 'Cancel',
  REFERENCES: 'References',
  showMoreReferences: (n: number) => `Show ${n} more`,
  SHOW_FEWER_REFERENCES: 'Show fewer',
  webPagesRead: (n: number) => (n === 1 ? 'Reading 1 web page' : `Reading ${n} web pages`),
  webSummary: (count: number, domains: readonly string[]) =>
    `Searched ${count} web ${count === 1 ? 'page' : 'pages'}${domains.length > 0 ? ` from ${domains.join(', ')}` : ''}`,
  DEBUG_LOGS: 'Debug logs',
  debugDocuments: (n: number) => `${n} ${n === 1 ? 'document' : 'documents'} retrieved`,
  EXPLORE_MORE: 'Explore more',
  RELATED: 'Related',
  TOPIC_MENU: 'Topic actions',
  RENAME_TOPIC: 'Rename',
  DELETE_TOPIC: 'Delete topic',
  DELETE_CONFIRM_TITLE: 'Delete this topic?',
  DELETE_CONFIRM_TEXT: 'The topic and all its messages are deleted for everyone. This cannot be undone.',
  DELETE: 'Delete',
  TOPIC_TITLE_LABEL: 'Topic title',
  UNTITLED_TOPIC: 'New topic',
  LOADING_OLDER: 'Loading older messages ...',
  UPGRADE_TITLE: 'Upgrade to Enterprise',
  UPGRADE_TEXT: 'This model is part of the Enterprise plan. Contact sales to enable it for your workspace.',
  CONTACT_SALES: 'Contact Sales',
  NO_TOPICS: 'No topics yet',
  ATTACH_FILES: 'Attach files',
  removeAttachment: (file: string) => `Remove ${file}`,
  specifySourcesTitle: (app: string) => `Specify sources: ${app}`,
  SPECIFY_SOURCES_HINT: 'Search only these. Separate entries with commas; names, IDs and links all work.',
  SPECIFY_SOURCES_CLEAR: 'Search everything',
  detailFieldLabels: {
    files: 'Files or pages',
    folders: 'Folders',
    drives: 'Drives',
    channels: 'Channels',
    spaces: 'Spaces',
  },
  SHARE: 'Share',
  SHARE_TITLE: 'Share settings',
  SHARE_ACCESS: 'Who can open this topic',
  ACCESS_INVITE_ONLY: 'Invite only',
  ACCESS_WORKSPACE: 'Workspace',
  ACCESS_PUBLIC: 'Public',
  ACCESS_INVITE_ONLY_HINT: 'Only you and the people added to this topic.',
  ACCESS_WORKSPACE_HINT: 'Everyone in your workspace with the link.',
  ACCESS_PUBLIC_HINT: 'Anyone with the link, even without signing in.',
  /** Ours: the warning before widening a topic whose answers cite sources the new audience cannot all read. */
  SHARE_NARROWER_SOURCES_WARNING:
    'Some answers in this topic draw on sources that not everyone in this audience can read. They will see those answers hidden.',
  SHARE_ANYWAY: 'Share anyway',
  SHARE_MEMBERS: 'People in this topic',
  SHARE_SEARCH_PLACEHOLDER: 'Add a colleague by name or email ...',
  SHARE_NO_MATCH: 'No one else to add matches this search.',
  COPY_LINK: 'Copy link',
  DONE: 'Done',
  ONBOARDING_EXTENSION_ROW: 'Browser extension',
  ONBOARDING_APP_STORE_ROW: 'App Store',
  /** Example prompts of the Understand, Create and Find cards, by the member's work role. */
  useCaseExamples: {
    engineering: {
      Understand: [
        'Explain how our deployment pipeline works',
        'Summarize the latest incident postmortem',
        'What changed in the last release?',
      ],
      Create: [
        'Draft a design doc outline for a new service',
        'Write release notes from recent tickets',
        'Write an on-call handover for this week',
      ],
      Find: [
        'Who owns the billing service?',
        'Find the API style guide',
        'Where is the runbook for the database?',
      ],
    },
    customer_support: {
      Understand: [
        'Summarize the top customer issues this week',
        'Explain our refund policy',
        'What is our SLA for enterprise customers?',
      ],
      Create: [
        'Draft a reply to a customer asking for a refund',
        'Write a help center article about password resets',
        'Write an escalation summary for engineering',
      ],
      Find: [
        'Find the troubleshooting guide for login issues',
        'Who handles billing escalations?',
        'Where is the support macro list?',
      ],
    },
    sales: {
      Understand: [
        'Summarize our pricing and packaging',
        'Explain how we compare with our main competitor',
        'What are the latest product updates to share with prospects?',
      ],
      Create: [
        'Draft a follow-up email after a demo',
        'Write a one-page pitch for a new prospect',
        'Outline a mutual action plan for a deal',
      ],
      Find: [
        'Find the latest sales deck',
        'Who is the solutions engineer for my region?',
        'Where are the case studies?',
      ],
    },
    marketing: {
      Understand: [
        'Summarize the results of our last campaign',
        'Explain our brand voice guidelines',
        'What are the key messages for the next launch?',
      ],
      Create: [
        'Draft a blog post announcing a new feature',
        'Write social posts for our next webinar',
        'Outline a launch plan for next quarter',
      ],
      Find: ['Find the brand guidelines', 'Where are the approved logos?', 'Who owns the website content?'],
    },
    product_management: {
      Understand: [
        'Summarize our latest product roadmap',
        'What feedback did customers give on the last release?',
        'Explain the goals for this quarter',
      ],
      Create: [
        'Draft a product requirements document outline',
        'Write a status update for stakeholders',
        'Write release notes from recent tickets',
      ],
      Find: ['Find the latest roadmap', 'Who is working on search?', 'Where are the user research notes?'],
    },
    hr: {
      Understand: [
        'Explain our parental leave policy',
        'Summarize our benefits for new hires',
        'What is our remote work policy?',
      ],
      Create: [
        'Draft a welcome email for a new hire',
        'Write an announcement about the holiday schedule',
        'Outline an onboarding plan for a new hire',
      ],
      Find: [
        'Find the onboarding checklist',
        'Where is the expense policy?',
        'Who approves time off requests?',
      ],
    },
    legal_compliance: {
      Understand: [
        'Summarize our data retention policy',
        'Explain our standard contract terms',
        'What are our obligations under GDPR?',
      ],
      Create: [
        'Draft a summary of changes to our privacy policy',
        'Write a compliance checklist for a new vendor',
        'Outline a training on data handling',
      ],
      Find: [
        'Find the latest master services agreement',
        'Where is the security questionnaire?',
        'Who signs off on NDAs?',
      ],
    },
    talent: {
      Understand: [
        'Summarize our hiring plan for this quarter',
        'Explain our interview process',
        'What are the open roles in engineering?',
      ],
      Create: [
        'Draft a job description for a product designer',
        'Write an outreach message to a candidate',
        'Outline interview questions for a sales role',
      ],
      Find: [
        'Find the interview scorecard template',
        'Who is the hiring manager for this role?',
        'Where is the referral policy?',
      ],
    },
    other: {
      Understand: [
        'Summarize our latest product roadmap',
        'Explain our parental leave policy',
        'What changed in the last release?',
      ],
      Create: [
        'Draft a status update for my team',
        'Write release notes from recent tickets',
        'Outline an onboarding plan for a new hire',
      ],
      Find: [
        'Find the onboarding checklist',
        'Who owns the billing service?',
        'Where is the expense policy?',
      ],
    },
  },
} as const;

/** The search results screen (spec shell-and-account §3 Search state, §4.12); not quoted by the spec. */
export const searchCopy = {
  NAV: 'Search',
  TITLE: 'Search',
  PLACEHOLDER: 'Search your apps… (press / to focus)',
  ALL_APPS: 'All apps',
  ALL_TYPES: 'All types',
  APPS: 'Apps',
  TYPES: 'Types',
  MODIFIED: 'Modified',
  PERSON: 'Person',
  FILE_TYPE: 'File type',
  SORT: 'Sort',
  PINNED: 'Pinned',
  LOADING_MORE: 'Loading more…',
  END_OF_RESULTS: 'No more results',
  EMPTY_PROMPT: 'Type a query to search everything you can read.',
  noResults: (q: string) => `No results for “${q}”.`,
  DID_YOU_MEAN: 'Did you mean',
  ERROR: 'Search failed. Please try again.',
  RETRY: 'Retry',
  modified: {
    any: 'Any time',
    day: 'Past 24 hours',
    week: 'Past week',
    month: 'Past month',
    year: 'Past year',
  },
  sort: {
    relevance: 'Relevance',
    modified_newest: 'Modified (newest)',
    modified_oldest: 'Modified (oldest)',
    created_newest: 'Created (newest)',
    created_oldest: 'Created (oldest)',
  },
  fileType: {
    any: 'Any type',
    document: 'Documents',
    presentation: 'Presentations',
    spreadsheet: 'Spreadsheets',
    pdf: 'PDFs',
    image: 'Images',
    other: 'Other',
    folder: 'Folders',
  },
  objectType: {
    all: 'All',
    answers: 'Answers',
    articles: 'Articles',
    calendar: 'Calendar',
    contacts: 'Contacts',
    files: 'Files',
    messages: 'Messages',
    tasks: 'Tasks',
  },
  EVERYONE: 'Everyone',
} as const;

/** The app store, app management, connect dialogs and homepage apps strip (spec apps-and-connections §2). */
export const appsCopy = {
  STORE_TITLE: 'Apps store',
  STORE_INTRO: 'Connect the apps your team works in, so Scout can search and answer across them.',
  SEARCH_PLACEHOLDER: 'Search apps ...',
  SEARCH_LABEL: 'Search apps',
  noMatches: (q: string) => `No apps match “${q}”.`,
  LOAD_FAILED: 'Apps could not be loaded.',
  RETRY: 'Retry',
  MANAGE_TITLE: 'Apps',
  MANAGE_INTRO: 'Connections of your organisation and your own, and how far each has synced.',
  APP: 'App',
  ORG: 'Org',
  INDIVIDUAL: 'Individual',
  NO_CONNECTIONS: 'No apps are connected yet.',
  BROWSE_APPS: 'Browse the app store',
  MANAGE: 'Manage',
  BACK_TO_APPS: 'All connected apps',
  UNKNOWN_APP: 'There is no such app.',
  HRIS_TITLE: 'HR directory',
  HRIS_INTRO: 'Connect one HRIS app to sync your employee directory.',
  connectTitle: (app: string) => `Connect ${app}`,
  CONNECT_MENU_LABEL: 'Choose the kind of connection',
  disconnectTitle: (app: string) => `Disconnect ${app}?`,
  disconnectText: (app: string, isOrg: boolean) =>
    isOrg
      ? `Scout stops syncing ${app} and removes its content from search for everyone in your workspace.`
      : `Scout stops syncing your ${app} account and removes its content from your search.`,
  CANCEL: 'Cancel',
  REQUIREMENTS: 'Before you connect',
  ICON_HINT: 'Optional: a PNG, JPEG, WebP or GIF image, up to 5 MB.',
  UPLOAD_ICON: 'Upload icon',
  REMOVE_ICON: 'Remove',
  UNAVAILABLE: 'This Scout server cannot connect this app yet.',
  UPGRADE_TITLE: 'Upgrade your plan',
  planNeeded: (plan: string) => `This needs the ${plan} plan. Contact sales to enable it for your workspace.`,
  CONTACT_SALES: 'Contact Sales',
  CATEGORIES: {
    POPULAR: 'Popular',
    ALL: 'All',
    WIKIS_DOCS: 'Wikis & docs',
    MESSAGING: 'Messaging',
    SUPPORT: 'Support',
    CRM: 'CRM',
    DESIGN: 'Design',
    PROJECT_MANAGEMENT: 'Project management',
    INTRANET: 'Intranet',
    WEBSITE: 'Website',
    HRIS: 'HRIS',
    CALENDAR: 'Calendar',
    ATS: 'ATS',
    ITSM: 'ITSM',
    CODE: 'Code',
    ANALYTICS: 'Analytics',
    PAYMENTS: 'Payments',
    MARKETING: 'Marketing',
    CUSTOM: 'Custom',
  },
  // Homepage
  APPS_STRIP_LABEL: 'Connected apps',
  SUGGESTIONS_LABEL: 'Suggested apps',
  CLOSE: 'Close',
  ERROR_MARKER: 'An app needs attention',
} as const;

export const apiKeysCopy = {
  INTRO: 'API keys let your own systems push documents to Scout through the custom API.',
  CREATE: 'Create API key',
  NAME: 'Name',
  NAME_PLACEHOLDER: 'e.g. Intranet sync',
  KEY: 'Key',
  CREATED_BY: 'Created by',
  CREATED: 'Created',
  LAST_USED: 'Last used',
  NEVER_USED: 'Never',
  UNKNOWN_CREATOR: '—',
  ACTIONS: 'Actions',
  REVOKE: 'Revoke',
  revokeLabel: (name: string) => `Revoke ${name}`,
  revokeTitle: (name: string) => `Revoke ${name}?`,
  REVOKE_TEXT: 'Programs using this key are refused from now on. This cannot be undone.',
  revoked: (name: string) => `Revoked ${name}`,
  CANCEL: 'Cancel',
  EMPTY: 'No API keys yet. Create one to push documents through the custom API.',
  LOAD_FAILED: 'Could not load the API keys.',
  RETRY: 'Try again',
  CREATED_TITLE: 'Your new API key',
  SECRET_WARNING: 'Copy this key now. It will not be shown again.',
  COPY: 'Copy key',
  COPIED: 'Copied',
  DONE: 'Done',
  UPGRADE_TITLE: 'Upgrade your plan',
  planNeeded: (plan: string) =>
    `API keys need the ${plan} plan. Contact sales to enable API access for your workspace.`,
} as const;

/** The document preview opened from a reference (spec shell-and-account §7.4). */
export const previewCopy = {
  /** Where the answer quoted the document. */
  CITED_PASSAGE: 'Cited passage',
  /** Where a search result matched. */
  MATCHING_PASSAGE: 'Matching passage',
  /** The document's text around that passage. */
  IN_THE_DOCUMENT: 'In the document',
  /** The viewer may no longer read it, or it is gone: only what the answer cited is left to show. */
  UNAVAILABLE: 'The rest of this document is not available to you.',
  openIn: (app: string) => `Open in ${app}`,
} as const;

/** The public topic page (spec shell-and-account §2.6) around the spec's Sign Up and Start a chat buttons. */
export const publicTopicCopy = {
  PROMO_HEADING: 'Get answers like these from your own work apps',
  PROMO_TEXT: 'Scout searches the apps your team already uses and answers with references you can check.',
  CUSTOMERS_LABEL: 'Built for teams like',
  /** Neutral text marks standing in for customer logos (spec §9: 5); no third-party trademarks. */
  CUSTOMER_MARKS: ['Acme Co.', 'Bluebird', 'Cedar Labs', 'Delta Works', 'Evergreen'],
  APPS_LABEL: 'Connects to',
  NOT_FOUND_HEADING: 'This topic is not available',
  NOT_FOUND_TEXT: 'It may have been deleted, or its owner may have stopped sharing it publicly.',
  /** Labels read by assistive technology. */
  MESSAGES_LABEL: 'Messages',
  LOADING: 'Loading the topic',
} as const;

/** The guided onboarding tour (spec shell-and-account §4.5), one popover per step. */
export const tourCopy = {
  steps: {
    connectApps: {
      title: 'Connect your apps',
      text: 'Scout answers from the apps you connect. Add the tools your team works in here.',
    },
    queryCards: {
      title: 'Start from a suggestion',
      text: 'Recommended questions and workflows to try, one click away.',
    },
    questionInput: {
      title: 'Ask anything',
      text: 'Type a question about your work. Answers come with references you can check.',
    },
  },
  NEXT: 'Next',
  DONE: 'Done',
  SKIP: 'Skip tour',
  stepOf: (n: number, total: number) => `${n} of ${total}`,
} as const;

/** The workflows screen, its dialog, the 'View workflows' menu and the homepage chips (spec names only the calls). */
export const workflowsCopy = {
  TITLE: 'Workflows',
  INTRO:
    'Questions you ask again and again, saved with the model they work best with. Use one to put it in the question box.',
  NEW: 'New workflow',
  SEARCH_PLACEHOLDER: 'Search workflows',
  FILTER_LABEL: 'Show',
  FILTER_ALL: 'All',
  FILTER_MINE: 'Mine',
  FILTER_ORG: 'Organisation',
  FILTER_RECOMMENDED: 'Recommended',
  EMPTY: 'No workflows yet. Create one here, or save a question from a chat with Save as workflow.',
  noMatch: (query: string) => `No workflows match “${query}”.`,
  EMPTY_FILTERED: 'No workflows here yet.',
  RETRY: 'Try again',
  USE: 'Use',
  EDIT: 'Edit',
  DELETE: 'Delete',
  editLabel: (title: string) => `Edit ${title}`,
  deleteLabel: (title: string) => `Delete ${title}`,
  BADGE_RECOMMENDED: 'Recommended',
  BADGE_ORG: 'Organisation',
  BADGE_PRIVATE: 'Private',
  byAuthor: (name: string) => `By ${name}`,
  CREATE_TITLE: 'New workflow',
  EDIT_TITLE: 'Edit workflow',
  TITLE_LABEL: 'Title',
  TITLE_PLACEHOLDER: 'e.g. Weekly project summary',
  TEMPLATE_LABEL: 'Template',
  TEMPLATE_DESCRIPTION: 'The text put in the question box when the workflow is used.',
  MODEL_LABEL: 'Preferred model',
  MODEL_PLACEHOLDER: 'Default model',
  SHARE_LABEL: 'Share with my organisation',
  RECOMMEND_LABEL: 'Recommend on everyone’s homepage',
  SAVE: 'Save',
  CANCEL: 'Cancel',
  SAVED: 'Workflow saved',
  SAVE_FAILED: 'Failed to save workflow',
  DELETE_TITLE: 'Delete workflow',
  deleteText: (title: string) =>
    `“${title}” will be deleted for everyone who can use it. This cannot be undone.`,
  DELETED: 'Workflow deleted',
  DELETE_FAILED: 'Failed to delete workflow',
  PICKER_EMPTY: 'No workflows yet.',
  MANAGE: 'Manage workflows',
} as const;
