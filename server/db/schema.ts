/**
 * The store's schema (DESIGN §3). Conventions:
 * - ids are UUID v7 made in app code (PostgreSQL 15 has no uuidv7()), so `$defaultFn(newId)`;
 * - every organisation-owned row carries a non-null `org_id` that cascades from `orgs`, and each
 *   such table has an index (or key) that starts with `org_id`, because every query filters by it;
 * - column names are snake_case, spelled out explicitly so raw SQL and drizzle agree on them;
 * - enumerations are `text` columns typed in TypeScript rather than PostgreSQL enums, so adding a
 *   value is a code change and not a migration that cannot run inside a transaction;
 * - everything here must be accepted by PostgreSQL 15 (CI server, no extensions) and by PGlite
 *   (PostgreSQL 18). Extension-backed objects (pgvector columns, pg_textsearch bm25 indexes) are
 *   created at start only where the extension exists, never by these migrations.
 */
import { relations, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { newId } from './ids';

// ---------------------------------------------------------------------------------------------
// Enumerations (values are the spec's wire values)
// ---------------------------------------------------------------------------------------------

export const allowedDomainStatuses = ['VERIFIED', 'UNVERIFIED', 'VERIFICATION_FAILED'] as const;
export const planTypes = ['TEAM', 'BUSINESS', 'ENTERPRISE'] as const;
export const subscriptionStatuses = ['ACTIVE', 'TRIAL', 'INACTIVE', 'CANCELLED'] as const;
export const userStatuses = ['INVITED', 'CREATED', 'SIGNED_UP', 'BLOCKED', 'DELETED'] as const;
export const topicVisibilities = ['INVITE_ONLY', 'PUBLIC', 'ORG'] as const;
/** A workflow is its author's alone (PRIVATE) or shared with the whole org (ORG); see server/policies/prompts.ts. */
export const promptVisibilities = ['PRIVATE', 'ORG'] as const;
export const topicMemberRoles = ['CREATOR', 'EDITOR'] as const;
export const messageSenders = ['USER', 'ASSISTANT'] as const;
export const messageStatuses = ['PENDING', 'SUCCESS', 'FAILED', 'CANCELLED'] as const;
// internal to the queue (never on the wire), hence lower case
export const jobStatuses = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
/** Worker lanes (DESIGN §5): quick jobs (uploads, permission syncs, embeddings) never wait behind long syncs. */
export const jobLanes = ['quick', 'long'] as const;
export const loginCodePurposes = ['LOGIN', 'SIGNUP'] as const;

export type AllowedDomainStatus = (typeof allowedDomainStatuses)[number];
export type PlanType = (typeof planTypes)[number];
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
export type UserStatus = (typeof userStatuses)[number];
export type TopicVisibility = (typeof topicVisibilities)[number];
export type PromptVisibility = (typeof promptVisibilities)[number];
export type TopicMemberRole = (typeof topicMemberRoles)[number];
export type MessageSender = (typeof messageSenders)[number];
export type MessageStatus = (typeof messageStatuses)[number];
export type JobStatus = (typeof jobStatuses)[number];
export type LoginCodePurpose = (typeof loginCodePurposes)[number];

/** JSON object columns whose exact shape is owned by the API contract in common/. */
export type JsonObject = Record<string, unknown>;
export interface HomepageLink {
  title: string;
  link: string;
}
/** Feature flags per org: all default off (spec), some carry numbers (fileTypeFilterNoticeThreshold). */
export type OrgFlags = Record<string, boolean | number | string>;
/** Notification preference flags are the strings 'True' / 'False' on the wire (spec). */
export type NotificationPrefs = Record<string, 'True' | 'False'>;

// ---------------------------------------------------------------------------------------------
// Column helpers (fresh builders per call: drizzle builders must not be shared between tables)
// ---------------------------------------------------------------------------------------------

const tz = { withTimezone: true } as const;

const id = () =>
  uuid('id')
    .primaryKey()
    .$defaultFn(() => newId());
const createdAt = () => timestamp('created_at', tz).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updated_at', tz)
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
const orgId = () =>
  uuid('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' });
const jsonObject = (name: string) => jsonb(name).$type<JsonObject>().notNull().default({});

/**
 * tsvector for the SQL BM25 fallback (DESIGN §4). drizzle has no built-in type for it; the value
 * is produced by PostgreSQL, so the TypeScript side only ever sees the text form.
 */
const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});

/** Raw bytes: pg hands back a Buffer, PGlite a Uint8Array; both are Uint8Arrays. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

// ---------------------------------------------------------------------------------------------
// Organisations, membership, billing
// ---------------------------------------------------------------------------------------------

export const orgs = pgTable(
  'orgs',
  {
    id: id(),
    domain: text('domain').notNull(),
    name: text('name').notNull().default(''),
    logo: text('logo'),
    preferences: jsonObject('preferences'),
    appPreferences: jsonObject('app_preferences'),
    isWorkspaceSetup: boolean('is_workspace_setup').notNull().default(false),
    firstAdminOnboarded: boolean('first_admin_onboarded').notNull().default(false),
    disclaimer: text('disclaimer'),
    customInstructions: text('custom_instructions'),
    // null means no retention limit (spec)
    chatRetentionDays: integer('chat_retention_days'),
    preferredLlm: text('preferred_llm'),
    publicTopicsEnabled: boolean('public_topics_enabled').notNull().default(false),
    homepageLinks: jsonb('homepage_links').$type<HomepageLink[]>().notNull().default([]),
    flags: jsonb('flags').$type<OrgFlags>().notNull().default({}),
    // analytics embed token (spec's exploToken); analytics tab shows only when present
    exploToken: text('explo_token'),
    // the last messages.row_id handed out in this org (the messages_number_per_org trigger)
    lastMessageRowId: bigint('last_message_row_id', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('orgs_domain_key').on(t.domain)],
);

export const orgAllowedDomains = pgTable(
  'org_allowed_domains',
  {
    id: id(),
    orgId: orgId(),
    domain: text('domain').notNull(),
    status: text('status', { enum: allowedDomainStatuses }).notNull().default('UNVERIFIED'),
    verificationCode: text('verification_code'),
    allowAllSignups: boolean('allow_all_signups').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('org_allowed_domains_org_domain_key').on(t.orgId, t.domain),
    // sign-up looks an email's domain up across orgs
    index('org_allowed_domains_domain_idx').on(t.domain),
  ],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    orgId: orgId(),
    planType: text('plan_type', { enum: planTypes }).notNull(),
    status: text('status', { enum: subscriptionStatuses }).notNull(),
    trialEndAt: timestamp('trial_end_at', tz),
    seatCount: integer('seat_count'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('subscriptions_org_idx').on(t.orgId, t.createdAt)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    orgId: orgId(),
    // stored lower-cased by the app; unique per org, not globally
    email: text('email').notNull(),
    sub: text('sub'),
    admin: boolean('admin').notNull().default(false),
    status: text('status', { enum: userStatuses }).notNull().default('CREATED'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    displayName: text('display_name'),
    photoUrl: text('photo_url'),
    onboardingState: jsonObject('onboarding_state'),
    hasSeenWebOnboarding: boolean('has_seen_web_onboarding').notNull().default(false),
    homepageLinks: jsonb('homepage_links').$type<HomepageLink[]>().notNull().default([]),
    preferences: jsonObject('preferences'),
    preferredLlm: text('preferred_llm'),
    // what the member tells the assistant about themselves (/my-ai-controls); only their own prompts read it
    personalBackground: text('personal_background'),
    reconnectedApps: jsonb('reconnected_apps').$type<Record<string, number>>().notNull().default({}),
    workRole: text('work_role'),
    referralSource: text('referral_source'),
    userSetupStatus: text('user_setup_status'),
    toursProgress: jsonObject('tours_progress'),
    invitedBy: uuid('invited_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    lastLoginAt: timestamp('last_login_at', tz),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('users_org_email_key').on(t.orgId, t.email),
    // sign-in starts from an email alone, before the org is known
    index('users_email_idx').on(t.email),
  ],
);

// ---------------------------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------------------------

/**
 * Email sign-in codes. Global (no org): a code is requested before the org is known, and sign-up
 * codes are sent before the org exists. Only a hash of the code is stored.
 */
export const loginCodes = pgTable(
  'login_codes',
  {
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: loginCodePurposes }).notNull().default('LOGIN'),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', tz).notNull(),
    usedAt: timestamp('used_at', tz),
    createdAt: createdAt(),
  },
  (t) => [index('login_codes_email_idx').on(t.email, t.createdAt)],
);

/**
 * Rotating refresh tokens (one row per issued token). A family is one sign-in; presenting a
 * rotated token again revokes the whole family (reuse detection).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    orgId: orgId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    familyId: uuid('family_id').notNull(),
    expiresAt: timestamp('expires_at', tz).notNull(),
    rotatedAt: timestamp('rotated_at', tz),
    revokedAt: timestamp('revoked_at', tz),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_token_hash_key').on(t.tokenHash),
    index('refresh_tokens_org_user_idx').on(t.orgId, t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    orgId: orgId(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    // the first characters of the key, shown in the admin list so a key can be recognised
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: timestamp('last_used_at', tz),
    revokedAt: timestamp('revoked_at', tz),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_org_idx').on(t.orgId, t.createdAt),
    // a revoked key frees its name
    uniqueIndex('api_keys_org_name_key')
      .on(t.orgId, t.name)
      .where(sql`revoked_at IS NULL`),
  ],
);

export const ssoConfigs = pgTable(
  'sso_configs',
  {
    id: id(),
    orgId: orgId(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    // AES-256-GCM ciphertext from server/db/secrets.ts
    clientSecretEncrypted: text('client_secret_encrypted'),
    enforced: boolean('enforced').notNull().default(false),
    onPremUrl: text('on_prem_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // one OIDC configuration per org
  (t) => [uniqueIndex('sso_configs_org_key').on(t.orgId)],
);

// ---------------------------------------------------------------------------------------------
// App connections and the search index
// ---------------------------------------------------------------------------------------------

/** The spec's UsersApp: one connection of an app, individual (is_org false) or org-wide. */
export const appConnections = pgTable(
  'app_connections',
  {
    id: id(),
    orgId: orgId(),
    // who connected it; kept (set null) when that user goes, so org-wide connections survive
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    appName: text('app_name').notNull(),
    connectionName: text('connection_name'),
    isOrg: boolean('is_org').notNull().default(false),
    appUserId: text('app_user_id'),
    botOrgWideAccess: boolean('bot_org_wide_access').notNull().default(false),
    icon: text('icon'),
    sharedBy: text('shared_by'),
    // the account on the app's side
    email: text('email'),
    extra: jsonObject('extra'),
    // AES-256-GCM ciphertext (server/db/secrets.ts) of the credentials/OAuth tokens JSON
    credentialsEncrypted: text('credentials_encrypted'),
    // spec status codes: NotConnected 0 … PartiallyConnected 5, negatives for errors
    statusCode: integer('status_code').notNull().default(0),
    statusMessage: text('status_message'),
    backwardCursor: text('backward_cursor'),
    cursor: jsonb('cursor').$type<JsonObject>(),
    syncedFrom: timestamp('synced_from', tz),
    syncedUntil: timestamp('synced_until', tz),
    // the last failure of a sync job (kept while it retries; cleared by the next sync that completes)
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', tz),
    workspaceId: text('workspace_id'),
    workspaceName: text('workspace_name'),
    onlyBotSearchEnabled: boolean('only_bot_search_enabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('app_connections_org_user_idx').on(t.orgId, t.userId),
    index('app_connections_org_app_idx').on(t.orgId, t.appName),
  ],
);

/**
 * An app's OAuth connect in progress (`PUT /oauth/{app}` until its callback): one-time, short-lived, and bound to
 * the member who started it, who owns the connection it creates.
 */
export const appOauthStates = pgTable(
  'app_oauth_states',
  {
    id: id(),
    orgId: orgId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appName: text('app_name').notNull(),
    // SHA-256 of the state sent to the provider; the state itself lives only in the address and a cookie
    stateHash: text('state_hash').notNull(),
    // the PKCE code verifier and the secret install options (ServiceNow's client secret), encrypted together
    // (server/db/secrets.ts)
    verifierEncrypted: text('verifier_encrypted').notNull(),
    isOrg: boolean('is_org').notNull(),
    // a connection to reconnect, if any
    connectionId: uuid('connection_id').references(() => appConnections.id, { onDelete: 'cascade' }),
    // the connection's non-secret settings from the install options (subdomain)
    options: jsonObject('options'),
    expiresAt: timestamp('expires_at', tz).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('app_oauth_states_state_hash_key').on(t.stateHash),
    index('app_oauth_states_org_user_idx').on(t.orgId, t.userId),
  ],
);

/** One item of a source app (DESIGN §4). Its chunks are what search ranks. */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    orgId: orgId(),
    // null for sources with no connection (uploads, verified answers)
    connectionId: uuid('connection_id').references(() => appConnections.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    externalId: text('external_id').notNull(),
    parentExternalId: text('parent_external_id'),
    title: text('title').notNull().default(''),
    url: text('url'),
    author: text('author'),
    authorEmail: text('author_email'),
    objectType: text('object_type'),
    fileType: text('file_type'),
    createdTime: timestamp('created_time', tz),
    modifiedTime: timestamp('modified_time', tz),
    contentHash: text('content_hash'),
    body: text('body').notNull().default(''),
    // principals: 'user:<email>', 'group:<source>:<id>', 'org', 'public' (DESIGN §4)
    acl: text('acl')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    extra: jsonObject('extra'),
    // outbox for an external index: bumped on change, indexed_version catches up (DESIGN §4)
    version: bigint('version', { mode: 'number' }).notNull().default(1),
    indexedVersion: bigint('indexed_version', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // NULLS NOT DISTINCT (PostgreSQL 15+): without it every connection-less document would be
    // "unique" and upserts on (org, source, NULL, external id) would insert duplicates
    unique('documents_identity_key').on(t.orgId, t.source, t.connectionId, t.externalId).nullsNotDistinct(),
    index('documents_org_modified_idx').on(t.orgId, t.modifiedTime),
    index('documents_connection_idx').on(t.connectionId),
  ],
);

/**
 * Retrieval units. Denormalised (source, types, time, ACL) so one query ranks and filters at once.
 *
 * The `embedding vector(n)` column is deliberately absent: PostgreSQL 15 in CI has no pgvector, so
 * the search initialiser adds it at start only where the `vector` extension exists (always in
 * embedded PGlite). Likewise the pg_textsearch `bm25` index on `body`.
 */
export const documentChunks = pgTable(
  'document_chunks',
  {
    id: id(),
    orgId: orgId(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    ord: integer('ord').notNull(),
    title: text('title').notNull().default(''),
    sectionPath: text('section_path'),
    // the indexed text: title and section path are prepended by the chunker (DESIGN §4), so the
    // bm25 index and the tsvector below see exactly the same words
    body: text('body').notNull(),
    startOffset: integer('start_offset'),
    endOffset: integer('end_offset'),
    tokenCount: integer('token_count'),
    source: text('source').notNull(),
    objectType: text('object_type'),
    fileType: text('file_type'),
    authorEmail: text('author_email'),
    modifiedTime: timestamp('modified_time', tz),
    acl: text('acl')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // to_tsvector('english', body): written by the indexer, whose one tokenisation also gives
    // search_length and the term statistics; a trigger derives it for any other writer (and on a
    // body change that does not write it), so it never drifts from body
    search: tsvector('search'),
    // BM25 document length (lexeme occurrences in `search`), written by the indexer
    searchLength: integer('search_length').notNull().default(0),
    // word positions of `search` taken by the prepended title and section path: a lexeme whose first
    // position is at most this matched the title or a heading (ranking weighs those above the body)
    prefixPositions: integer('prefix_positions').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('document_chunks_org_document_idx').on(t.orgId, t.documentId),
    uniqueIndex('document_chunks_document_ord_key').on(t.documentId, t.ord),
    index('document_chunks_org_source_idx').on(t.orgId, t.source),
    index('document_chunks_search_idx').using('gin', t.search),
    index('document_chunks_acl_idx').using('gin', t.acl),
  ],
);

/**
 * Lexeme chunk frequencies per org. `doc_freq` counts every chunk (the org's vocabulary: did-you-mean's candidates,
 * never shown as counts); `shared_doc_freq` counts the chunks every member may read, and is the only one ranking
 * uses (idf), so a member's order and scores never depend on documents they cannot read.
 */
export const searchTermStats = pgTable(
  'search_term_stats',
  {
    orgId: orgId(),
    lexeme: text('lexeme').notNull(),
    docFreq: integer('doc_freq').notNull().default(0),
    sharedDocFreq: integer('shared_doc_freq').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'search_term_stats_pkey', columns: [t.orgId, t.lexeme] }),
    // did-you-mean's candidates share a typed word's first letter or its letters 2–3 (api/search/spelling.ts):
    // without these, each misspelled word scanned the org's whole vocabulary (0.4 s embedded at 1M chunks)
    index('search_term_stats_first_letter_idx').on(
      t.orgId,
      sql`left(${t.lexeme}, 1)`,
      sql`length(${t.lexeme})`,
    ),
    index('search_term_stats_second_letters_idx').on(
      t.orgId,
      sql`substr(${t.lexeme}, 2, 2)`,
      sql`length(${t.lexeme})`,
    ),
  ],
);

/**
 * Collection size per org: every chunk (the planner's and the engine choice's row count), and the chunks every
 * member may read (N and the average length that ranking uses, as `shared_doc_freq`).
 */
export const searchStats = pgTable('search_stats', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  chunkCount: bigint('chunk_count', { mode: 'number' }).notNull().default(0),
  totalLength: bigint('total_length', { mode: 'number' }).notNull().default(0),
  sharedChunkCount: bigint('shared_chunk_count', { mode: 'number' }).notNull().default(0),
  sharedTotalLength: bigint('shared_total_length', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * Group memberships synced from sources (connector `permissions()`), so a member's principals are
 * `user:<email>`, `org`, `public` and every `group:<source>:<id>` listing their email.
 */
export const aclGroupMembers = pgTable(
  'acl_group_members',
  {
    id: id(),
    orgId: orgId(),
    connectionId: uuid('connection_id').references(() => appConnections.id, { onDelete: 'cascade' }),
    // the principal as written in ACLs, e.g. 'group:slack:<connection id>:C1', or 'group:google:<email>', which
    // several of the org's Google connections may each list members of
    groupKey: text('group_key').notNull(),
    memberEmail: text('member_email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // per connection, so one connection replacing or dropping its memberships never deletes another's
    unique('acl_group_members_key').on(t.orgId, t.connectionId, t.groupKey, t.memberEmail).nullsNotDistinct(),
    index('acl_group_members_org_email_idx').on(t.orgId, t.memberEmail),
    index('acl_group_members_connection_idx').on(t.connectionId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Bots, topics, messages
// ---------------------------------------------------------------------------------------------

export const bots = pgTable(
  'bots',
  {
    id: id(),
    orgId: orgId(),
    botName: text('bot_name').notNull(),
    // spec default icon: a robot emoji
    icon: text('icon').notNull().default('🤖'),
    description: text('description'),
    // skills, files and answers, each with search_all and filters (spec)
    sources: jsonObject('sources'),
    preferredLlm: text('preferred_llm'),
    // org-wide by default; PUBLIC exists (spec)
    visibility: text('visibility').notNull().default('ORG'),
    isManaged: boolean('is_managed').notNull().default(false),
    customInstructions: text('custom_instructions'),
    isDefault: boolean('is_default').notNull().default(false),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    deletedAt: timestamp('deleted_at', tz),
    createdAt: createdAt(),
    modifiedAt: timestamp('modified_at', tz)
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    // soft-deleted bots free their name
    uniqueIndex('bots_org_name_key')
      .on(t.orgId, t.botName)
      .where(sql`deleted_at IS NULL`),
  ],
);

export const botAdmins = pgTable(
  'bot_admins',
  {
    orgId: orgId(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'bot_admins_pkey', columns: [t.botId, t.email] }),
    index('bot_admins_org_email_idx').on(t.orgId, t.email),
  ],
);

export const topics = pgTable(
  'topics',
  {
    // the spec's conversation_id
    id: id(),
    orgId: orgId(),
    topicTitle: text('topic_title').notNull().default(''),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    botId: uuid('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    archived: boolean('archived').notNull().default(false),
    visibility: text('visibility', { enum: topicVisibilities }).notNull().default('INVITE_ONLY'),
    isMultiplayer: boolean('is_multiplayer').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('topics_org_author_idx').on(t.orgId, t.authorId, t.updatedAt),
    index('topics_org_bot_idx').on(t.orgId, t.botId),
  ],
);

export const topicMembers = pgTable(
  'topic_members',
  {
    orgId: orgId(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: topicMemberRoles }).notNull().default('EDITOR'),
    lastReadAt: timestamp('last_read_at', tz),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'topic_members_pkey', columns: [t.topicId, t.userId] }),
    index('topic_members_org_user_idx').on(t.orgId, t.userId),
  ],
);

export const messages = pgTable(
  'messages',
  {
    // the spec's message_id
    id: id(),
    orgId: orgId(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    // the spec's numeric row_id: a monotonic cursor for history paging and public-topic links. Numbered per org
    // by a trigger (whatever is written here is replaced), so it tells a member nothing of other orgs' traffic
    rowId: bigint('row_id', { mode: 'number' }).notNull().default(0),
    // an assistant message answers this user message (feedback's query_id, RECONNECT)
    replyToId: uuid('reply_to_id').references((): AnyPgColumn => messages.id, { onDelete: 'set null' }),
    sender: text('sender', { enum: messageSenders }).notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    botId: uuid('bot_id').references(() => bots.id, { onDelete: 'set null' }),
    messageText: text('message_text').notNull().default(''),
    messageType: text('message_type'),
    messageEncoding: text('message_encoding').notNull().default('PLAIN_TEXT'),
    status: text('status', { enum: messageStatuses }).notNull().default('PENDING'),
    references: jsonb('references').$type<JsonObject[]>().notNull().default([]),
    allReferencesSummary: jsonb('all_references_summary').$type<JsonObject>(),
    relatedSearches: jsonb('related_searches').$type<unknown[]>().notNull().default([]),
    debugLogs: jsonb('debug_logs').$type<JsonObject>(),
    extraData: jsonObject('extra_data'),
    progressBar: integer('progress_bar'),
    deepresearch: boolean('deepresearch').notNull().default(false),
    isQueryAccepted: boolean('is_query_accepted'),
    skillRetrieved: jsonb('skill_retrieved').$type<JsonObject[]>(),
    llm: text('llm'),
    tsSentAt: timestamp('ts_sent_at', tz),
    // STOP_GENERATION for an answer another `scout serve` instance is writing: that instance polls for it
    cancelRequestedAt: timestamp('cancel_requested_at', tz),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('messages_org_topic_row_idx').on(t.orgId, t.topicId, t.rowId),
    uniqueIndex('messages_org_row_id_key').on(t.orgId, t.rowId),
  ],
);

export const uploads = pgTable(
  'uploads',
  {
    id: id(),
    orgId: orgId(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    visibility: text('visibility').notNull().default('PRIVATE'),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    // -1 means not yet indexed (spec)
    totalChunks: integer('total_chunks').notNull().default(-1),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    // set when the file was attached in a topic (the spec's topic file map)
    conversationId: uuid('conversation_id').references(() => topics.id, { onDelete: 'set null' }),
    // where the bytes live (blob store path), owned by the uploads service
    storageKey: text('storage_key'),
    // the parser's title and file type, and its text until the index job has moved it into the index
    title: text('title'),
    fileType: text('file_type'),
    parsedText: text('parsed_text'),
    // set on a site's export archive (zip upload with a site-id header): kept whole for its connector to read,
    // never indexed or listed as a file
    siteId: text('site_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('uploads_org_creator_idx').on(t.orgId, t.creatorId, t.createdAt),
    index('uploads_org_conversation_idx').on(t.orgId, t.conversationId),
    index('uploads_org_site_idx').on(t.orgId, t.siteId),
  ],
);

/**
 * An upload's bytes, in pieces, written in the same transaction as its `uploads` row: a crash leaves the whole
 * file or nothing, and every instance (API or worker) reads the same bytes.
 */
export const uploadBlobs = pgTable(
  'upload_blobs',
  {
    orgId: orgId(),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ name: 'upload_blobs_pkey', columns: [t.orgId, t.uploadId, t.seq] })],
);

export const messageFiles = pgTable(
  'message_files',
  {
    orgId: orgId(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'message_files_pkey', columns: [t.messageId, t.uploadId] }),
    index('message_files_org_upload_idx').on(t.orgId, t.uploadId),
  ],
);

export const botFeedbacks = pgTable(
  'bot_feedbacks',
  {
    id: id(),
    orgId: orgId(),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    feedback: text('feedback'),
    processedFeedback: text('processed_feedback'),
    createdAt: createdAt(),
  },
  (t) => [index('bot_feedbacks_org_bot_idx').on(t.orgId, t.botId)],
);

/** Workflows (recommended prompts). */
export const prompts = pgTable(
  'prompts',
  {
    id: id(),
    orgId: orgId(),
    title: text('title').notNull(),
    template: text('template').notNull(),
    preferredLlm: text('preferred_llm'),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    visibility: text('visibility', { enum: promptVisibilities }).notNull().default('PRIVATE'),
    // only ever true on an ORG workflow (server/policies/prompts.ts)
    isRecommended: boolean('is_recommended').notNull().default(false),
    // POST /prompts/prompt_used: the recommended row shows the most used first
    useCount: integer('use_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('prompts_org_idx').on(t.orgId, t.isRecommended),
    index('prompts_org_author_idx').on(t.orgId, t.authorId),
  ],
);

export const verifiedAnswers = pgTable(
  'verified_answers',
  {
    id: id(),
    orgId: orgId(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    views: integer('views').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verified_answers_org_idx').on(t.orgId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Homepage, inbox, feedback, search activity
// ---------------------------------------------------------------------------------------------

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    orgId: orgId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // notify-tagged-users, notify-bot-admins, … (spec)
    type: text('type').notNull(),
    data: jsonObject('data'),
    actors: jsonb('actors').$type<JsonObject[]>().notNull().default([]),
    markdown: text('markdown'),
    readAt: timestamp('read_at', tz),
    insertedAt: timestamp('inserted_at', tz).notNull().defaultNow(),
  },
  (t) => [index('notifications_org_user_idx').on(t.orgId, t.userId, t.insertedAt)],
);

export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: orgId(),
    // absent keys read as 'False' (spec default)
    prefs: jsonb('prefs').$type<NotificationPrefs>().notNull().default({}),
    desktopPushDisabled: boolean('desktop_push_disabled').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [index('notification_preferences_org_idx').on(t.orgId)],
);

/** Answer feedback (thumbs up/down with optional comment and per-reference votes). */
export const feedback = pgTable(
  'feedback',
  {
    id: id(),
    orgId: orgId(),
    queryId: text('query_id'),
    // spec: dashes removed on the wire
    responseId: text('response_id'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    // 1 positive, -1 negative, 0 none
    rating: smallint('rating').notNull().default(0),
    comment: text('comment'),
    referencesFeedback: jsonb('references_feedback').$type<Record<string, number>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // one vote per user and answer, so a second submission is an upsert
    unique('feedback_org_user_response_key').on(t.orgId, t.userId, t.responseId),
  ],
);

/** Feature requests members send from the sidebar's Support menu (spec shell-and-account §2.8, §5); admins read them. */
export const featureRequests = pgTable(
  'feature_requests',
  {
    id: id(),
    orgId: orgId(),
    // kept (set null) when the member goes: the request still stands
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('feature_requests_org_created_idx').on(t.orgId, t.createdAt)],
);

/** Search result pins: object_id shown first for query q. */
export const pins = pgTable(
  'pins',
  {
    id: id(),
    orgId: orgId(),
    objectId: text('object_id').notNull(),
    q: text('q').notNull(),
    pinnedBy: uuid('pinned_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [unique('pins_org_q_object_key').on(t.orgId, t.q, t.objectId)],
);

export const searchHistory = pgTable(
  'search_history',
  {
    id: id(),
    orgId: orgId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    q: text('q').notNull(),
    searchedAt: timestamp('searched_at', tz).notNull().defaultNow(),
  },
  (t) => [index('search_history_org_user_idx').on(t.orgId, t.userId, t.searchedAt)],
);

export const recentVisits = pgTable(
  'recent_visits',
  {
    id: id(),
    orgId: orgId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // the spec's _RecordRecentVisit docSource
    docSource: text('doc_source').notNull(),
    visitedAt: timestamp('visited_at', tz).notNull().defaultNow(),
  },
  (t) => [index('recent_visits_org_user_idx').on(t.orgId, t.userId, t.visitedAt)],
);

// ---------------------------------------------------------------------------------------------
// Durable job queue (DESIGN §1): claimed with FOR UPDATE SKIP LOCKED
// ---------------------------------------------------------------------------------------------

export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    // null for system jobs (retention sweeps, scheduler ticks); org jobs go with their org
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    payload: jsonObject('payload'),
    status: text('status', { enum: jobStatuses }).notNull().default('queued'),
    priority: integer('priority').notNull().default(0),
    runAt: timestamp('run_at', tz).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedUntil: timestamp('locked_until', tz),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    // at most one live (queued or running) job per key, e.g. one sync of each kind per connection
    dedupeKey: text('dedupe_key'),
    lane: text('lane', { enum: jobLanes }).notNull().default('quick'),
    // at most one running job per key: a connection's syncs of different kinds take turns
    exclusiveKey: text('exclusive_key'),
    finishedAt: timestamp('finished_at', tz),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('jobs_org_idx').on(t.orgId, t.kind),
    // the claim query: due queued jobs
    index('jobs_claim_idx')
      .on(t.runAt)
      .where(sql`status = 'queued'`),
    // expired leases of crashed workers are reclaimed through this
    index('jobs_running_lease_idx')
      .on(t.lockedUntil)
      .where(sql`status = 'running'`),
    uniqueIndex('jobs_dedupe_key')
      .on(t.dedupeKey)
      .where(sql`status IN ('queued', 'running')`),
    uniqueIndex('jobs_exclusive_key')
      .on(t.exclusiveKey)
      .where(sql`status = 'running'`),
  ],
);

/** Small durable state for recurring jobs (last run of a schedule, a global sweep cursor). */
export const jobCursors = pgTable(
  'job_cursors',
  {
    key: text('key').primaryKey(),
    // null for system-wide schedules
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    cursor: jsonObject('cursor'),
    lastRunAt: timestamp('last_run_at', tz),
    updatedAt: updatedAt(),
  },
  (t) => [index('job_cursors_org_idx').on(t.orgId)],
);

// ---------------------------------------------------------------------------------------------
// Relations (for db.query.… with `with`)
// ---------------------------------------------------------------------------------------------

export const orgsRelations = relations(orgs, ({ many }) => ({
  users: many(users),
  allowedDomains: many(orgAllowedDomains),
  subscriptions: many(subscriptions),
  appConnections: many(appConnections),
}));

export const usersRelations = relations(users, ({ one, many }) => ({
  org: one(orgs, { fields: [users.orgId], references: [orgs.id] }),
  appConnections: many(appConnections),
}));

export const orgAllowedDomainsRelations = relations(orgAllowedDomains, ({ one }) => ({
  org: one(orgs, { fields: [orgAllowedDomains.orgId], references: [orgs.id] }),
}));

export const subscriptionsRelations = relations(subscriptions, ({ one }) => ({
  org: one(orgs, { fields: [subscriptions.orgId], references: [orgs.id] }),
}));

export const appConnectionsRelations = relations(appConnections, ({ one, many }) => ({
  org: one(orgs, { fields: [appConnections.orgId], references: [orgs.id] }),
  user: one(users, { fields: [appConnections.userId], references: [users.id] }),
  documents: many(documents),
}));

export const documentsRelations = relations(documents, ({ one, many }) => ({
  connection: one(appConnections, { fields: [documents.connectionId], references: [appConnections.id] }),
  chunks: many(documentChunks),
}));

export const documentChunksRelations = relations(documentChunks, ({ one }) => ({
  document: one(documents, { fields: [documentChunks.documentId], references: [documents.id] }),
}));

export const botsRelations = relations(bots, ({ one, many }) => ({
  author: one(users, { fields: [bots.authorId], references: [users.id] }),
  admins: many(botAdmins),
  feedbacks: many(botFeedbacks),
}));

export const botAdminsRelations = relations(botAdmins, ({ one }) => ({
  bot: one(bots, { fields: [botAdmins.botId], references: [bots.id] }),
}));

export const botFeedbacksRelations = relations(botFeedbacks, ({ one }) => ({
  bot: one(bots, { fields: [botFeedbacks.botId], references: [bots.id] }),
}));

export const topicsRelations = relations(topics, ({ one, many }) => ({
  author: one(users, { fields: [topics.authorId], references: [users.id] }),
  bot: one(bots, { fields: [topics.botId], references: [bots.id] }),
  members: many(topicMembers),
  messages: many(messages),
  uploads: many(uploads),
}));

export const topicMembersRelations = relations(topicMembers, ({ one }) => ({
  topic: one(topics, { fields: [topicMembers.topicId], references: [topics.id] }),
  user: one(users, { fields: [topicMembers.userId], references: [users.id] }),
}));

export const messagesRelations = relations(messages, ({ one, many }) => ({
  topic: one(topics, { fields: [messages.topicId], references: [topics.id] }),
  author: one(users, { fields: [messages.authorId], references: [users.id] }),
  bot: one(bots, { fields: [messages.botId], references: [bots.id] }),
  files: many(messageFiles),
}));

export const messageFilesRelations = relations(messageFiles, ({ one }) => ({
  message: one(messages, { fields: [messageFiles.messageId], references: [messages.id] }),
  upload: one(uploads, { fields: [messageFiles.uploadId], references: [uploads.id] }),
}));

export const uploadsRelations = relations(uploads, ({ one }) => ({
  creator: one(users, { fields: [uploads.creatorId], references: [users.id] }),
  topic: one(topics, { fields: [uploads.conversationId], references: [topics.id] }),
  document: one(documents, { fields: [uploads.documentId], references: [documents.id] }),
}));

export const verifiedAnswersRelations = relations(verifiedAnswers, ({ one }) => ({
  creator: one(users, { fields: [verifiedAnswers.creatorId], references: [users.id] }),
}));

// ---------------------------------------------------------------------------------------------
// Row types
// ---------------------------------------------------------------------------------------------

export type Org = typeof orgs.$inferSelect;
export type NewOrg = typeof orgs.$inferInsert;
export type OrgAllowedDomain = typeof orgAllowedDomains.$inferSelect;
export type NewOrgAllowedDomain = typeof orgAllowedDomains.$inferInsert;
export type Subscription = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type LoginCode = typeof loginCodes.$inferSelect;
export type NewLoginCode = typeof loginCodes.$inferInsert;
export type RefreshToken = typeof refreshTokens.$inferSelect;
export type NewRefreshToken = typeof refreshTokens.$inferInsert;
export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
export type SsoConfig = typeof ssoConfigs.$inferSelect;
export type NewSsoConfig = typeof ssoConfigs.$inferInsert;
export type AppConnection = typeof appConnections.$inferSelect;
export type NewAppConnection = typeof appConnections.$inferInsert;
export type Document = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;
export type DocumentChunk = typeof documentChunks.$inferSelect;
export type NewDocumentChunk = typeof documentChunks.$inferInsert;
export type SearchTermStat = typeof searchTermStats.$inferSelect;
export type NewSearchTermStat = typeof searchTermStats.$inferInsert;
export type SearchStat = typeof searchStats.$inferSelect;
export type NewSearchStat = typeof searchStats.$inferInsert;
export type AclGroupMember = typeof aclGroupMembers.$inferSelect;
export type NewAclGroupMember = typeof aclGroupMembers.$inferInsert;
export type Bot = typeof bots.$inferSelect;
export type NewBot = typeof bots.$inferInsert;
export type BotAdmin = typeof botAdmins.$inferSelect;
export type NewBotAdmin = typeof botAdmins.$inferInsert;
export type BotFeedback = typeof botFeedbacks.$inferSelect;
export type NewBotFeedback = typeof botFeedbacks.$inferInsert;
export type Topic = typeof topics.$inferSelect;
export type NewTopic = typeof topics.$inferInsert;
export type TopicMember = typeof topicMembers.$inferSelect;
export type NewTopicMember = typeof topicMembers.$inferInsert;
export type Message = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;
export type MessageFile = typeof messageFiles.$inferSelect;
export type NewMessageFile = typeof messageFiles.$inferInsert;
export type Upload = typeof uploads.$inferSelect;
export type NewUpload = typeof uploads.$inferInsert;
export type UploadBlob = typeof uploadBlobs.$inferSelect;
export type Prompt = typeof prompts.$inferSelect;
export type NewPrompt = typeof prompts.$inferInsert;
export type VerifiedAnswer = typeof verifiedAnswers.$inferSelect;
export type NewVerifiedAnswer = typeof verifiedAnswers.$inferInsert;
export type Notification = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;
export type NotificationPreference = typeof notificationPreferences.$inferSelect;
export type NewNotificationPreference = typeof notificationPreferences.$inferInsert;
export type Feedback = typeof feedback.$inferSelect;
export type FeatureRequest = typeof featureRequests.$inferSelect;
export type NewFeedback = typeof feedback.$inferInsert;
export type Pin = typeof pins.$inferSelect;
export type NewPin = typeof pins.$inferInsert;
export type SearchHistoryEntry = typeof searchHistory.$inferSelect;
export type NewSearchHistoryEntry = typeof searchHistory.$inferInsert;
export type RecentVisit = typeof recentVisits.$inferSelect;
export type NewRecentVisit = typeof recentVisits.$inferInsert;
export type Job = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
export type JobCursor = typeof jobCursors.$inferSelect;
export type NewJobCursor = typeof jobCursors.$inferInsert;
