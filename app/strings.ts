// Labels of the app's own screens that the spec describes without quoting ("ours"). The quoted strings live in
// common/strings.ts and are used from there; nothing here repeats one of them.

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
