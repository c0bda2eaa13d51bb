// The app catalogue of spec apps-and-connections §3: every app Scout knows, with how it can be connected and
// what it indexes. The app store, the connect dialogs, the policies and the connectors all read this one list,
// so a rule such as "HRIS apps have no individual connection" holds everywhere at once.

export const ConnectionType = {
  /** Org connection indexes only what is visible org-wide; members add an individual connection for the rest. */
  OrgRestricted: 'OrgRestricted',
  /** Only an org connection exists (directories, public sites, shared knowledge bases). */
  OrgOnly: 'OrgOnly',
  /** The org connection syncs the source's own permissions, so each member already sees their own content. */
  AccessControl: 'AccessControl',
  /** Only individual connections exist ('No org-wide connection available for this app'). */
  PersonalOnly: 'PersonalOnly',
  /** Not a vendor connection: content is pushed to Scout (custom-api) or the entry only authenticates. */
  Other: 'Other',
} as const;
export type ConnectionType = (typeof ConnectionType)[keyof typeof ConnectionType];

/** A bit mask: bit 1 means instant for org connections, bit 2 for individual ones. */
export const InstantAvailable = {
  NotAvailable: 0,
  Org: 1,
  Personal: 2,
  Both: 3,
} as const;
export type InstantAvailable = (typeof InstantAvailable)[keyof typeof InstantAvailable];

export const ObjectType = {
  All: 'All',
  Files: 'Files',
  Tasks: 'Tasks',
  Messages: 'Messages',
  Contacts: 'Contacts',
  Calendar: 'Calendar',
  Answers: 'Answers',
  Articles: 'Articles',
} as const;
export type ObjectType = (typeof ObjectType)[keyof typeof ObjectType];

/** The search page's object-type filter spells the same values in lower case (spec shell-and-account §3). */
export function objectTypeParam(type: ObjectType): Lowercase<ObjectType> {
  return type.toLowerCase() as Lowercase<ObjectType>;
}

export const AppCategory = {
  POPULAR: 'POPULAR',
  ALL: 'ALL',
  WIKIS_DOCS: 'WIKIS_DOCS',
  MESSAGING: 'MESSAGING',
  SUPPORT: 'SUPPORT',
  CRM: 'CRM',
  DESIGN: 'DESIGN',
  PROJECT_MANAGEMENT: 'PROJECT_MANAGEMENT',
  INTRANET: 'INTRANET',
  WEBSITE: 'WEBSITE',
  HRIS: 'HRIS',
  CALENDAR: 'CALENDAR',
  ATS: 'ATS',
  ITSM: 'ITSM',
  CODE: 'CODE',
  ANALYTICS: 'ANALYTICS',
  PAYMENTS: 'PAYMENTS',
  MARKETING: 'MARKETING',
  CUSTOM: 'CUSTOM',
} as const;
export type AppCategory = (typeof AppCategory)[keyof typeof AppCategory];

export interface AppDefinition {
  readonly shortname: string;
  readonly displayName: string;
  /** What is indexed, as shown in the app store. */
  readonly description: string;
  readonly connectionType: ConnectionType;
  readonly objectTypes: readonly ObjectType[];
  readonly instantAvailable: InstantAvailable;
  /** Store tabs the app appears under; ALL is the tab of every app, so no app lists it. */
  readonly appCategory: readonly AppCategory[];
  readonly showInAppStore: boolean;
  /** Master switch: an app is offered only when this and the org's per-app flag are both on. */
  readonly controlEnabled: boolean;
  /** Apps sharing a parent share one org authorisation, so one org connection blocks the others. */
  readonly parent?: string;
  readonly popularAppSortOrder?: number;
}

const CT = ConnectionType;
const OT = ObjectType;
const IA = InstantAvailable;
const AC = AppCategory;

const APP_LIST = [
  {
    shortname: 'aha',
    displayName: 'Aha!',
    description: 'Features, ideas, epics, initiatives and releases from Aha! Roadmaps.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'asana',
    displayName: 'Asana',
    description: 'Tasks, projects and comments from Asana workspaces.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'ashby',
    displayName: 'Ashby',
    description: 'Candidates, jobs, applications and interview feedback from Ashby.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.ATS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'attio',
    displayName: 'Attio',
    description: 'Companies, people, deals, notes and lists from your Attio workspace.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Both,
    appCategory: [AC.CRM],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'azure_devops',
    displayName: 'Azure DevOps',
    description: 'Work items, wiki pages and repository files from Azure DevOps projects.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks, OT.Files, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.CODE, AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'bamboo_hr',
    displayName: 'BambooHR',
    description: 'Employee directory from BambooHR: names, titles, departments, locations and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.HRIS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'bitbucket',
    displayName: 'Bitbucket',
    description: 'Repository code, pull requests and issues from Bitbucket Cloud workspaces.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files, OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.CODE],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'box',
    displayName: 'Box',
    description: 'Files and folders stored in Box, with their sharing permissions.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'brandfolder',
    displayName: 'Brandfolder',
    description: 'Brand assets, collections and their metadata from Brandfolder.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Files],
    instantAvailable: IA.Org,
    appCategory: [AC.DESIGN, AC.MARKETING],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'canva',
    displayName: 'Canva',
    description: 'Designs and folders you can access in Canva.',
    connectionType: CT.PersonalOnly,
    objectTypes: [OT.Files],
    instantAvailable: IA.Personal,
    appCategory: [AC.DESIGN],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'clickup',
    displayName: 'ClickUp',
    description: 'Tasks, lists, docs and comments from ClickUp workspaces.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks, OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'coda',
    displayName: 'Coda',
    description: 'Docs, pages and tables from Coda.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'confluence',
    displayName: 'Confluence',
    description: 'Pages, blog posts, comments and attachments from Confluence spaces.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'custom-api',
    displayName: 'Custom API',
    description: 'Documents your own systems push to Scout through the API with an API key.',
    connectionType: CT.Other,
    objectTypes: [OT.All],
    instantAvailable: IA.Org,
    appCategory: [AC.CUSTOM],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'darwinbox',
    displayName: 'Darwinbox',
    description: 'Employee directory from Darwinbox: names, titles, departments, locations and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.HRIS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'document360',
    displayName: 'Document360',
    description: 'Knowledge base articles and categories from Document360.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.WIKIS_DOCS, AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'docusign',
    displayName: 'Docusign',
    description: 'Envelopes, agreements and templates from Docusign eSignature.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'dropbox',
    displayName: 'Dropbox',
    description: 'Files, folders and Paper docs from Dropbox, with their sharing permissions.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'figma',
    displayName: 'Figma',
    description: 'Design files, FigJam boards, pages and comments you can access in Figma.',
    connectionType: CT.PersonalOnly,
    objectTypes: [OT.Files],
    instantAvailable: IA.Personal,
    appCategory: [AC.DESIGN],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'freshdesk',
    displayName: 'Freshdesk',
    description: 'Support tickets, conversations and solution articles from Freshdesk.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Tasks, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'freshservice',
    displayName: 'Freshservice',
    description: 'IT service tickets, problems, changes and solution articles from Freshservice.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Tasks, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.ITSM, AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'front',
    displayName: 'Front',
    description: 'Shared inbox conversations, messages and comments from Front.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Messages],
    instantAvailable: IA.Both,
    appCategory: [AC.SUPPORT, AC.MESSAGING],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'gcal',
    displayName: 'Google Calendar',
    description: 'Calendar events, attendees and descriptions from Google Calendar.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Calendar],
    instantAvailable: IA.Both,
    appCategory: [AC.CALENDAR],
    showInAppStore: true,
    controlEnabled: true,
    parent: 'gworkspace',
  },
  {
    shortname: 'gdrive',
    displayName: 'Google Drive',
    description: 'Docs, Sheets, Slides, PDFs and other files in Google Drive and shared drives.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.POPULAR, AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
    parent: 'gworkspace',
    popularAppSortOrder: 3,
  },
  {
    shortname: 'gong',
    displayName: 'Gong',
    description: 'Call recordings, transcripts and call summaries from Gong.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Messages],
    instantAvailable: IA.Both,
    appCategory: [AC.CRM, AC.ANALYTICS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'gsites',
    displayName: 'Google Sites',
    description: 'Pages of a Google Site, imported from its exported site archive.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.INTRANET, AC.WEBSITE],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'gusto',
    displayName: 'Gusto',
    description: 'Employee directory from Gusto: names, titles, departments, locations and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.HRIS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    // Authentication only: the org-wide Google authorisation that gmail, gcal and gdrive hang off.
    shortname: 'gworkspace',
    displayName: 'Google Workspace',
    description:
      'Google Workspace admin authorisation for Gmail, Google Calendar and Google Drive; indexes nothing.',
    connectionType: CT.Other,
    objectTypes: [],
    instantAvailable: IA.NotAvailable,
    appCategory: [],
    showInAppStore: false,
    controlEnabled: false,
  },
  {
    // Reached from directory sync, not from the store.
    shortname: 'gworkspace-directory',
    displayName: 'Google Workspace Directory',
    description: 'User directory from Google Workspace: names, emails, titles, departments and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [],
    showInAppStore: false,
    controlEnabled: true,
  },
  {
    shortname: 'gitbook',
    displayName: 'GitBook',
    description: 'Pages of the GitBook spaces and collections in your organisation.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'github',
    displayName: 'GitHub',
    description: 'Code, issues, pull requests, discussions and wikis from GitHub repositories.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files, OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.CODE],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'gitlab',
    displayName: 'GitLab',
    description: 'Code, issues, merge requests and wikis from GitLab projects.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files, OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.CODE],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'gmail',
    displayName: 'Gmail',
    description: 'Email threads and attachments from Gmail mailboxes.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Messages],
    instantAvailable: IA.Both,
    appCategory: [AC.MESSAGING],
    showInAppStore: true,
    controlEnabled: true,
    parent: 'gworkspace',
  },
  {
    shortname: 'guru',
    displayName: 'Guru',
    description: 'Verified knowledge cards, boards and collections from Guru.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'helpjuice',
    displayName: 'Helpjuice',
    description: 'Knowledge base articles and categories from Helpjuice.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.WIKIS_DOCS, AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'helpscout',
    displayName: 'Help Scout',
    description: 'Customer conversations from Help Scout mailboxes and articles from Help Scout Docs.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Messages, OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'highspot',
    displayName: 'Highspot',
    description: 'Sales enablement content, spots and pitches from Highspot.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.MARKETING],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'bob',
    displayName: 'HiBob',
    description: 'Employee directory from HiBob: names, titles, departments, locations and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.HRIS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'hubspot',
    displayName: 'HubSpot',
    description: 'Contacts, companies, deals, tickets, notes and knowledge base articles from HubSpot.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Contacts, OT.Tasks, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.CRM, AC.MARKETING],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'intercom',
    displayName: 'Intercom',
    description: 'Customer conversations, tickets and help center articles from Intercom.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Messages, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'jira',
    displayName: 'Jira',
    description: 'Issues, comments and attachments from Jira projects.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'linear',
    displayName: 'Linear',
    description: 'Issues, projects, comments and documents from Linear.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks, OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'lucidchart',
    displayName: 'Lucidchart',
    description: 'Diagrams and documents you can access in Lucidchart.',
    connectionType: CT.PersonalOnly,
    objectTypes: [OT.Files],
    instantAvailable: IA.Personal,
    appCategory: [AC.DESIGN],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'mailchimp',
    displayName: 'Mailchimp',
    description: 'Email campaigns, their content and audiences from Mailchimp.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Messages],
    instantAvailable: IA.Org,
    appCategory: [AC.MARKETING],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'miro',
    displayName: 'Miro',
    description: 'Boards, sticky notes, cards and text from Miro.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.DESIGN],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'monday',
    displayName: 'monday.com',
    description: 'Boards, items, updates and docs from monday.com workspaces.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'msteams',
    displayName: 'Microsoft Teams',
    description: 'Channel messages, chats and replies from Microsoft Teams.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Messages],
    instantAvailable: IA.Both,
    appCategory: [AC.MESSAGING],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'mural',
    displayName: 'Mural',
    description: 'Murals, rooms and sticky notes you can access in Mural.',
    connectionType: CT.PersonalOnly,
    objectTypes: [OT.Files],
    instantAvailable: IA.Personal,
    appCategory: [AC.DESIGN],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'notion',
    displayName: 'Notion',
    description: 'Pages, databases and comments from Notion workspaces.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.POPULAR, AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
    popularAppSortOrder: 2,
  },
  {
    shortname: 'outlook',
    displayName: 'Outlook',
    description: 'Email, attachments and calendar events from Microsoft Outlook mailboxes.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Messages, OT.Calendar],
    instantAvailable: IA.Both,
    appCategory: [AC.MESSAGING, AC.CALENDAR],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'onedrive',
    displayName: 'OneDrive',
    description: 'Files and folders stored in Microsoft OneDrive, with their sharing permissions.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'paylocity',
    displayName: 'Paylocity',
    description: 'Employee directory from Paylocity: names, titles, departments, locations and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.HRIS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'pipedrive',
    displayName: 'Pipedrive',
    description: 'Deals, persons, organisations, notes and activities from Pipedrive.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Contacts, OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.CRM],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'productboard',
    displayName: 'Productboard',
    description: 'Features, notes, insights and roadmaps from Productboard.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Org,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'quip',
    displayName: 'Quip',
    description: 'Documents, spreadsheets and chat threads from Quip.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files, OT.Messages],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'readme',
    displayName: 'ReadMe',
    description: 'Guides, API reference pages and changelogs from ReadMe developer hubs.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    // Hidden from the store: reached through the HRIS (finch) route.
    shortname: 'rippling',
    displayName: 'Rippling',
    description: 'Employee directory from Rippling: names, titles, departments, locations and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.HRIS],
    showInAppStore: false,
    controlEnabled: true,
  },
  {
    shortname: 'salesforce',
    displayName: 'Salesforce',
    description: 'Accounts, contacts, opportunities, cases and knowledge articles from Salesforce.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Contacts, OT.Tasks, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.POPULAR, AC.CRM],
    showInAppStore: true,
    controlEnabled: true,
    popularAppSortOrder: 5,
  },
  {
    shortname: 'servicenow',
    displayName: 'ServiceNow',
    description: 'Incidents, cases and knowledge base articles from ServiceNow.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Tasks, OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.ITSM, AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'sharepoint',
    displayName: 'SharePoint',
    description: 'Site pages, document libraries and list items from SharePoint Online.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS, AC.INTRANET],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'shortcut',
    displayName: 'Shortcut',
    description: 'Stories, epics, comments and docs from Shortcut.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'simpplr',
    displayName: 'Simpplr',
    description: 'Intranet pages, news, events and files from Simpplr sites.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.INTRANET],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'slab',
    displayName: 'Slab',
    description: 'Posts and topics from your Slab knowledge base.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'slack',
    displayName: 'Slack',
    description: 'Messages, threads and shared files from Slack channels and conversations.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Messages, OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.POPULAR, AC.MESSAGING],
    showInAppStore: true,
    controlEnabled: true,
    popularAppSortOrder: 1,
  },
  {
    shortname: 'smartsheet',
    displayName: 'Smartsheet',
    description: 'Sheets, rows, reports and attachments from Smartsheet.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks, OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'stackoverflowteams',
    displayName: 'Stack Overflow for Teams',
    description: 'Questions, answers and articles from your Stack Overflow for Teams site.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.CODE, AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'stripe',
    displayName: 'Stripe',
    description: 'Customers, subscriptions, invoices and products from Stripe.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.PAYMENTS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'trello',
    displayName: 'Trello',
    description: 'Boards, cards, checklists and comments from Trello.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'website',
    displayName: 'Website',
    description: 'Public pages of a website, crawled from the URL you give.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Articles],
    instantAvailable: IA.Org,
    appCategory: [AC.POPULAR, AC.WEBSITE],
    showInAppStore: true,
    controlEnabled: true,
    popularAppSortOrder: 4,
  },
  {
    shortname: 'workday',
    displayName: 'Workday',
    description: 'Employee directory from Workday: names, titles, departments, locations and managers.',
    connectionType: CT.OrgOnly,
    objectTypes: [OT.Contacts],
    instantAvailable: IA.Org,
    appCategory: [AC.HRIS],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'wrike',
    displayName: 'Wrike',
    description: 'Tasks, projects, folders and comments from Wrike.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'zendesk',
    displayName: 'Zendesk',
    description: 'Support tickets, comments and help center articles from Zendesk.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Tasks, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'zoho_crm',
    displayName: 'Zoho CRM',
    description: 'Leads, contacts, accounts, deals and notes from Zoho CRM.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Contacts, OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.CRM],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'zoho_desk',
    displayName: 'Zoho Desk',
    description: 'Support tickets, threads and knowledge base articles from Zoho Desk.',
    connectionType: CT.OrgRestricted,
    objectTypes: [OT.Tasks, OT.Articles],
    instantAvailable: IA.Both,
    appCategory: [AC.SUPPORT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'zoho_projects',
    displayName: 'Zoho Projects',
    description: 'Projects, tasks, issues and comments from Zoho Projects.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Tasks],
    instantAvailable: IA.Both,
    appCategory: [AC.PROJECT_MANAGEMENT],
    showInAppStore: true,
    controlEnabled: true,
  },
  {
    shortname: 'zoho_workdrive',
    displayName: 'Zoho WorkDrive',
    description: 'Files and folders in Zoho WorkDrive team folders, with their permissions.',
    connectionType: CT.AccessControl,
    objectTypes: [OT.Files],
    instantAvailable: IA.Both,
    appCategory: [AC.WIKIS_DOCS],
    showInAppStore: true,
    controlEnabled: true,
  },
] as const satisfies readonly AppDefinition[];

export type AppShortname = (typeof APP_LIST)[number]['shortname'];

/** All 76 apps, in the order the spec lists them. */
export const APPS: readonly AppDefinition[] = APP_LIST;

export const APP_SHORTNAMES: readonly AppShortname[] = APP_LIST.map((app) => app.shortname);

const BY_SHORTNAME: ReadonlyMap<string, AppDefinition> = new Map(APPS.map((app) => [app.shortname, app]));

export function isAppShortname(value: string): value is AppShortname {
  return BY_SHORTNAME.has(value);
}

export function getApp(shortname: string): AppDefinition | undefined {
  return BY_SHORTNAME.get(shortname);
}

// Groupings of spec apps-and-connections §3, §4 and §6. Typed by AppShortname so a misspelt name fails to compile.

export const HRIS_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'bamboo_hr',
  'bob',
  'darwinbox',
  'gusto',
  'paylocity',
  'rippling',
  'workday',
]);

/**
 * HRIS connections go through the finch route (/admin/hris redirects to /apps/org/finch). finch is a route
 * target, not one of the 76 apps, so it is deliberately absent from APPS.
 */
export const FINCH_HRIS_ROUTE_APP = 'finch';

export const POPULAR_APP_ORDER: readonly AppShortname[] = [
  'slack',
  'notion',
  'gdrive',
  'website',
  'salesforce',
];

export const GWORKSPACE_PARENT = 'gworkspace';
export const GWORKSPACE_CHILDREN: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'gmail',
  'gcal',
  'gdrive',
]);

/** Apps whose 'Specify sources' modal exists (behind the appSpecificFiltersEnabled flag). */
export const SOURCE_FILTER_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'confluence',
  'gdrive',
  'notion',
  'slack',
]);

/** Org connections of these are managed elsewhere (HRIS route, API keys, upload, crawler), never by a button. */
export const NO_VISIBLE_CONNECT_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  ...HRIS_APPS,
  'custom-api',
  'gsites',
  'website',
]);

export const DIRECT_INSTALL_NOTICE_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'simpplr',
  'servicenow',
  'gsites',
  'custom-api',
]);

/** Their connectors read session cookies that the browser extension refreshes after connect and on status change. */
export const COOKIE_REFRESH_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'highspot',
  'freshdesk',
  'freshservice',
  'monday',
  'figma',
  'gong',
  'notion',
]);

export const ONE_ORG_CONNECTION_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'outlook',
  'onedrive',
]);

export const ONE_INDIVIDUAL_CONNECTION_APPS: ReadonlySet<AppShortname> = new Set<AppShortname>([
  'notion',
  'figma',
  'gong',
  'monday',
  'highspot',
  'freshdesk',
  'freshservice',
]);

export function isHris(shortname: string): boolean {
  return (HRIS_APPS as ReadonlySet<string>).has(shortname);
}

/** Org connections exist for every connection type except PersonalOnly, instant or not. */
export function supportsOrg(app: AppDefinition): boolean {
  return app.connectionType !== ConnectionType.PersonalOnly;
}

/**
 * An individual connection needs a type other than OrgOnly and the Personal instant bit: a non-instant
 * connection waits for a sync set up on the org's behalf, which only makes sense for an org connection.
 */
export function supportsPersonal(app: AppDefinition): boolean {
  return (
    app.connectionType !== ConnectionType.OrgOnly && (app.instantAvailable & InstantAvailable.Personal) !== 0
  );
}

/** Whether results arrive as the app syncs ('Syncing (N%)' badges, '{app} connected' toast) for this connection kind. */
export function isInstant(app: AppDefinition, isOrg: boolean): boolean {
  return (app.instantAvailable & (isOrg ? InstantAvailable.Org : InstantAvailable.Personal)) !== 0;
}

function byStoreOrder(a: AppDefinition, b: AppDefinition): number {
  const pa = a.popularAppSortOrder ?? Number.POSITIVE_INFINITY;
  const pb = b.popularAppSortOrder ?? Number.POSITIVE_INFINITY;
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a.displayName.localeCompare(b.displayName, 'en', { sensitivity: 'base' });
}

const STORE_APPS: readonly AppDefinition[] = APPS.filter((app) => app.showInAppStore).sort(byStoreOrder);

/** Apps the store lists: popular ones first by popularAppSortOrder, then the rest by display name. */
export function appStoreApps(): readonly AppDefinition[] {
  return STORE_APPS;
}

/** One store tab. ALL and POPULAR are tabs over the whole store rather than categories an app opts into. */
export function appsInCategory(category: AppCategory): readonly AppDefinition[] {
  if (category === AppCategory.ALL) return STORE_APPS;
  if (category === AppCategory.POPULAR)
    return STORE_APPS.filter((app) => app.popularAppSortOrder !== undefined);
  return STORE_APPS.filter((app) => app.appCategory.includes(category));
}
