// The contract between a connector and the sync engine (DESIGN §5). A connector reads one source and yields
// batches of documents with a cursor; the engine chunks and indexes each batch and commits its cursor in the same
// transaction, so a crash loses at most the batch in hand and a restart resumes from the last committed cursor.
import { z } from 'zod';
import type { InstallPayloadKind } from '../../common/api/connectors';
import { ObjectType, type AppShortname } from '../../common/catalogue';
import type { CredentialName } from './errors';
import type { HttpClient } from './http';
import type { RequestLimits } from './limits';
import type { ConnectorLogger } from './logger';

// ── Principals ──────────────────────────────────────────────────────────────────────────────────────────────
// Who may read a document (DESIGN §4). A member sees a document iff one of their principals is in its ACL. The
// same helpers build ACLs and group memberships, so the strings always match when the index filters.

export const userPrincipalSchema = z
  .templateLiteral(['user:', z.email()])
  .refine((principal) => principal === principal.toLowerCase(), 'build user principals with userPrincipal()');

/** `group:<source>:<id>`: the source prefix keeps two apps' group ids from colliding. */
export const groupPrincipalSchema = z.templateLiteral([
  'group:',
  z.string().regex(/^[a-z0-9_-]+$/),
  ':',
  z.string().min(1),
]);

export const ORG_PRINCIPAL = 'org';
export const PUBLIC_PRINCIPAL = 'public';

export const principalSchema = z.union([
  userPrincipalSchema,
  groupPrincipalSchema,
  /** Everyone in the organisation. */
  z.literal(ORG_PRINCIPAL),
  /** Anyone, signed in or not (public web pages, public links). */
  z.literal(PUBLIC_PRINCIPAL),
]);

export type UserPrincipal = z.infer<typeof userPrincipalSchema>;
export type GroupPrincipal = z.infer<typeof groupPrincipalSchema>;
export type Principal = z.infer<typeof principalSchema>;

/** Emails compare case-insensitively at every vendor we know, so principals are lower case. */
export function userPrincipal(email: string): UserPrincipal {
  return `user:${email.trim().toLowerCase()}`;
}

/** Group ids stay as the source spells them: some sources (Slack) have ids that differ only by case. */
export function groupPrincipal(source: AppShortname, id: string): GroupPrincipal {
  return `group:${source}:${id}`;
}

/**
 * A Google group, by its email (unique across Google). Unlike an app's own groups it is the organisation's, not one
 * connection's: Drive sharing names it, and whichever of the org's Google connections syncs the directory supplies
 * its members, so the Workspace directory connection's memberships meet Drive's ACLs. The engine keeps it org-wide
 * only for Google's apps; anyone else naming it gets a group of their own connection.
 */
export function googleGroupPrincipal(email: string): GroupPrincipal {
  return `group:google:${email.trim().toLowerCase()}`;
}

/** A group and its direct members; nested groups are members too, and the engine expands them. */
export const groupMembershipSchema = z.object({
  group: groupPrincipalSchema,
  members: z.array(z.union([userPrincipalSchema, groupPrincipalSchema])),
});
export type GroupMembership = z.infer<typeof groupMembershipSchema>;

/** The most external ids the engine asks `documentAcls` about in one call. */
export const DOCUMENT_ACL_BATCH_SIZE = 100;

/** A document's readers as the source says now; `acl` means what SourceDocument.acl means. */
export const documentAclSchema = z.object({
  externalId: z.string().min(1).max(512),
  acl: z.array(principalSchema).nullable(),
});
export type DocumentAcl = z.infer<typeof documentAclSchema>;

// ── Documents ───────────────────────────────────────────────────────────────────────────────────────────────

/** What a document can be. 'All' is a search filter, not a kind of document. */
export const DOCUMENT_OBJECT_TYPES = [
  ObjectType.Files,
  ObjectType.Tasks,
  ObjectType.Messages,
  ObjectType.Contacts,
  ObjectType.Calendar,
  ObjectType.Answers,
  ObjectType.Articles,
] as const;

/** Metadata for filters and the prompt: flat values only, like the facets they feed. */
const extraValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const sourceDocumentSchema = z.object({
  /** The source's own id, stable across edits and renames; unique within the connection. */
  externalId: z.string().min(1).max(512),
  title: z.string().min(1),
  /** Where a reference sends the reader. */
  url: z.url({ protocol: /^https?$/ }),
  /** Plain text (or Markdown) of the whole document; the engine chunks it. */
  body: z.string(),
  author: z.object({ name: z.string().min(1).optional(), email: z.email().optional() }),
  objectType: z.enum(DOCUMENT_OBJECT_TYPES),
  /** A lower-case kind for the file-type filter: 'pdf', 'docx', 'md', 'html', 'message', 'issue'… */
  fileType: z.string().regex(/^[a-z0-9][a-z0-9.+-]*$/),
  createdTime: z.date(),
  modifiedTime: z.date(),
  /**
   * Who may read it, as the source says. `null` means the source cannot say: the engine then makes the document
   * private to the connection's owner (fail closed, never open). `[]` means the source says nobody in the
   * organisation may, and nobody will see it. Individual connections stay private to their owner whatever the
   * ACL says; the engine applies that, connectors report the source's view.
   */
  acl: z.array(principalSchema).nullable(),
  extra: z.record(z.string(), extraValueSchema),
  /** The containing item (a page's parent, a message's thread), for hierarchy and context. */
  parentExternalId: z.string().min(1).optional(),
});
export type SourceDocument = z.infer<typeof sourceDocumentSchema>;

// ── Sync batches and cursors ────────────────────────────────────────────────────────────────────────────────

/**
 * Where a sync stands, in the connector's own terms (page tokens, timestamps, phases). Opaque to the engine,
 * which stores it as JSON, so it must survive JSON.stringify/parse unchanged: no Dates, no undefined.
 */
export const cursorSchema = z.json();
export type Cursor = z.infer<typeof cursorSchema>;

export const syncBatchSchema = z.object({
  documents: z.array(sourceDocumentSchema),
  /** Items the source reports deleted since the last batch; the rest are found by pruning (listIds). */
  deletedExternalIds: z.array(z.string().min(1)).optional(),
  /**
   * A checkpoint: `incrementalSync(ctx, cursor)` continues from here, delivering everything not yet delivered
   * (the rest of a full sync, if it was cut short) and everything changed since. The last cursor of a full
   * sync therefore says "caught up as of when it started".
   */
  cursor: cursorSchema,
  /**
   * `syncedFrom`: the oldest instant the sync has covered so far, for the 3-year progress bar. Connectors that
   * walk newest-first report it; others leave it out and progress jumps to 100 when they finish. `share`: for a
   * connector that does not walk time (a crawler), the part of the work done so far, 0–1; it may step back when
   * the work turns out larger than it looked (a crawler discovering pages), so the engine shows the highest seen.
   */
  progress: z
    .object({ syncedFrom: z.date().optional(), share: z.number().min(0).max(1).optional() })
    .optional(),
});
export type SyncBatch = z.infer<typeof syncBatchSchema>;

/** What validate() learned about the account, for the connection's workspaceName, appUserId and email. */
export const connectionIdentitySchema = z.object({
  workspaceName: z.string().optional(),
  appUserId: z.string().optional(),
  email: z.email().optional(),
});
export type ConnectionIdentity = z.infer<typeof connectionIdentitySchema>;

// ── Uploaded site archives ──────────────────────────────────────────────────────────────────────────────────

/** A file inside an uploaded archive: its path there ('/'-separated) and its declared uncompressed size. */
export interface ArchiveFile {
  readonly path: string;
  readonly size: number;
}

/** A site's export archive as a member uploaded it (a zip sent to `/document_uploads/zip` with a site-id header). */
export interface SiteArchive {
  /** The upload's id: a new upload under the same site id has another. */
  readonly id: string;
  readonly uploadedAt: Date;
  /** Its files; folders and the archiver's hidden files (`__MACOSX/`, dotfiles) are left out. */
  readonly files: readonly ArchiveFile[];
  /** One file's bytes; throws FatalSourceError when the archive cannot yield it (corrupt, encrypted, a bomb). */
  read(path: string): Promise<Uint8Array>;
}

export interface SiteArchives {
  /** The newest archive uploaded under `siteId` that the connection's owner may read, or null when none has. */
  find(siteId: string): Promise<SiteArchive | null>;
}

// ── Files read by Scout's parsers ───────────────────────────────────────────────────────────────────────────

/** A file as its source describes it, before its bytes are fetched. */
export interface SourceFile {
  readonly name: string;
  readonly mimeType?: string;
  /** The size the source declares, in bytes, when it declares one. */
  readonly size?: number;
}

/** What a file's download request must carry (both are RequestOptions of the connection's HTTP client). */
export interface DownloadLimits {
  /** The parsing limit: a file that declared no size is cut here (ResponseTooLargeError), not held whole. */
  readonly maxBodyBytes: number;
  /** Longer than an API call's, for a file as large as that. */
  readonly timeoutMs: number;
}

export interface FileParser {
  /**
   * The text of a file in a format Scout reads (PDF, Office, OpenDocument, RTF, CSV, HTML, text), extracted by the
   * server's parsers off the sync's thread. `download` is called only for such a file whose declared size is
   * within the parsing limit, and must apply `limits` to its request. Null when the file is not read: a format
   * Scout does not read, over the limit, empty, or unreadable; the reason is logged. The download's own errors
   * reach the caller (a 404 means the file is gone).
   */
  parse(file: SourceFile, download: (limits: DownloadLimits) => Promise<Uint8Array>): Promise<string | null>;
}

// ── The connector ───────────────────────────────────────────────────────────────────────────────────────────

export interface ConnectorContext<Credentials, Config> {
  /** Decrypted and parsed with the connector's credentials schema. Never log them. */
  readonly credentials: Credentials;
  readonly config: Config;
  /**
   * The connection's HTTP client: its limiter, signal, logger and clock are the connection's. Connectors derive
   * their vendor client with `ctx.http.with({ baseUrl, headers: { authorization } })`.
   */
  readonly http: HttpClient;
  readonly logger: ConnectorLogger;
  /** Aborts when the job is stopped or its lease is lost; stop promptly and yield nothing more. */
  readonly signal: AbortSignal;
  now(): Date;
  /**
   * Waits on the connection's clock, for a connector that paces itself (a crawler's politeness delay); rejects as
   * soon as `signal` aborts. A test's fake clock makes it instant.
   */
  sleep(ms: number): Promise<void>;
  /**
   * Three years back from when the context was made (spec: progress is measured against this window).
   * Connectors of unbounded histories (messages, mail, tickets) stop here; curated corpora may take everything.
   */
  readonly syncWindowStart: Date;
  /**
   * Archives uploaded to Scout itself, for connectors whose source is an export rather than a vendor's API. A
   * connector may not import the server, which stores them, so the server lends this read-only view scoped to the
   * connection's organisation and owner; a context made without it (the conformance kit) finds none.
   */
  readonly siteArchives: SiteArchives;
  /**
   * Scout's own parsers, for the files a source holds (PDFs, Office documents, attachments). A connector may not
   * import the server, which runs them in isolated workers, so the server lends them; a context made without them
   * (the conformance kit, a connector's own tests) reads no file.
   */
  readonly files: FileParser;
}

export interface CredentialField<Credentials> {
  readonly key: Extract<keyof Credentials, string>;
  /** The field's label in the connect dialog, e.g. 'API key'. */
  readonly label: string;
  /** Masked when typed; never shown back. */
  readonly secret: boolean;
}

/**
 * An app connected by the OAuth authorization-code flow (`PUT /oauth/{app}`). The server runs the flow with the
 * client id and secret configured for the app and hands the token response to `credentialsSchema` as credentials.
 */
export interface OAuthSettings {
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly scopes: readonly string[];
  /** Sends a PKCE S256 challenge; leave it on unless the vendor rejects the parameters. */
  readonly pkce: boolean;
  /** Extra parameters of the authorization address the vendor needs (e.g. `access_type: 'offline'`). */
  readonly authorizeParams?: Readonly<Record<string, string>>;
  /**
   * How the client id and secret reach the token URL: in the form body ('post', the default) or as HTTP Basic
   * credentials, unencoded as Notion's SDK sends them ('basic'), for vendors that refuse the body (Notion).
   */
  readonly tokenAuth?: 'post' | 'basic';
}

/**
 * The body the connect dialog sends (spec §7): one kind for both connection kinds, or one per kind where an org
 * connection is made differently (Google's and Microsoft's marketplace installs) from an individual one. A kind left
 * out is a connection this server cannot make.
 */
export type InstallPayloadDeclaration =
  InstallPayloadKind | { readonly org?: InstallPayloadKind; readonly individual?: InstallPayloadKind };

/** The install payload of an org (`isOrg`) or individual connection of `connector`; undefined when it has none. */
export function installPayloadOf(
  connector: { readonly installPayload: InstallPayloadDeclaration },
  isOrg: boolean,
): InstallPayloadKind | undefined {
  const declared = connector.installPayload;
  if (typeof declared === 'string') return declared;
  return isOrg ? declared.org : declared.individual;
}

export interface Connector<Credentials, Config> {
  readonly shortname: AppShortname;
  readonly installPayload: InstallPayloadDeclaration;
  /** Reads the install payload (and later the decrypted store) into typed credentials. */
  readonly credentialsSchema: z.ZodType<Credentials>;
  /**
   * Reads the install payload into the non-secret settings (subdomain, team slug, site URL). By convention an
   * optional `baseUrl` overrides the vendor's API origin, which is how tests point a connector at its fake.
   */
  readonly configSchema: z.ZodType<Config>;
  readonly credentialFields: readonly CredentialField<Credentials>[];
  /** Names the credential in 'Incorrect {credential name}. Please try again.' */
  readonly credentialName: CredentialName;
  /**
   * The vendor's published limits, enforced by the HTTP client for all of an org's connections of the vendor
   * together (the engine shares one limiter per org and vendor), or for each connection (`limitScope`).
   */
  readonly limits?: RequestLimits;
  /**
   * Whose allowance `limits` describe: the org's ('org', the default: a workspace's or tenant's quota, which all
   * its connections of the vendor spend together), or each connection's ('connection': a per-user or per-mailbox
   * quota, such as Gmail's and Outlook's, which one member's sync must not hold back another's).
   */
  readonly limitScope?: 'org' | 'connection';
  /**
   * Apps whose requests count against one vendor allowance name the same vendor ('google', 'microsoft'), so
   * their connections share one limiter; defaults to the app's shortname.
   */
  readonly vendor?: string;
  /** Set for apps connected through the OAuth popup rather than a credentials form. */
  readonly oauth?: OAuthSettings;
  /**
   * The documents arrive through Scout's push API, not from the syncs: the engine never prunes them, since
   * `listIds` cannot know them.
   */
  readonly pushed?: boolean;
  /**
   * An org connection through a service account with domain-wide delegation (Google Workspace): the OAuth scopes
   * the Workspace's super admin authorises for its client ID in the Admin console, as the connect dialog lists them.
   */
  readonly delegatedScopes?: readonly string[];

  /**
   * Checks the credentials with one cheap call. Throws InvalidCredentialsError or PermissionMismatchError (the
   * account works but lacks a role or scope the app needs).
   */
  validate(ctx: ConnectorContext<Credentials, Config>): Promise<ConnectionIdentity>;
  /** Everything from the start. Yield a batch per source page, tens to a few hundred documents. */
  fullSync(ctx: ConnectorContext<Credentials, Config>): AsyncIterable<SyncBatch>;
  /** Continues from any cursor fullSync or incrementalSync yielded (see SyncBatch.cursor). */
  incrementalSync(ctx: ConnectorContext<Credentials, Config>, cursor: Cursor): AsyncIterable<SyncBatch>;
  /**
   * Every external id that currently exists, for pruning: the engine deletes documents not listed. It must admit
   * at least everything fullSync would yield, or pruning deletes live documents; extra ids are harmless.
   */
  listIds(ctx: ConnectorContext<Credentials, Config>): AsyncIterable<string[]>;
  /**
   * All of the source's groups and their members, as a complete snapshot: the engine replaces the connection's
   * groups only when the iteration finishes, so a failed run leaves the previous snapshot in place.
   */
  permissions?(ctx: ConnectorContext<Credentials, Config>): AsyncIterable<GroupMembership[]>;
  /**
   * The current readers of indexed documents, asked by external id (at most DOCUMENT_ACL_BATCH_SIZE at a time)
   * without fetching content: the periodic permission sync, for sources whose sharing changes leave no trace in
   * the change feed. Answer the ids the source still has and leave out the rest (pruning removes them).
   */
  documentAcls?(
    ctx: ConnectorContext<Credentials, Config>,
    externalIds: readonly string[],
  ): Promise<DocumentAcl[]>;
}
