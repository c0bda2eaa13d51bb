// Outlook: the connecting member's own mail through Microsoft Graph, readable by that member only; or, connected
// org-wide on the tenant's admin consent, every enabled user's mailbox with an app-only token, each message readable
// by its mailbox's owner alone, exactly as that user's own connection would index it.
//
// One message is one document. Graph tracks changes per folder and per message (delta queries), so a message maps
// onto exactly one feed entry: an edit, a move or a delete touches one document and nothing else. A conversation
// as one document would mean re-reading every message of it (across Inbox, Sent Items and any folder) whenever one
// arrives. Messages keep their conversation id as their parent, for context.
//
// A message's file attachments are read by Scout's parsers (their raw bytes at `$value`, fetched only for a format
// they read within the size limit) and written into its document under their names, as Gmail's are: an attachment
// is its message's, read by the mailbox's owner alone. A mail attached as an Outlook item (forwarded as an
// attachment) is read too, its sender, recipients, subject and body, from the item Graph expands in the attachment,
// and so are the files and mails attached to it, which Graph expands in the same answer (file bytes inline), a few
// levels deep; attached events and contacts and cloud links are named, not read.
//
// Ids are Graph's immutable ids (`Prefer: IdType="ImmutableId"`): a moved message keeps its id, so a move is an
// update and not a delete plus a new document. A move still shows in the old folder's delta as removed; each
// removal is therefore checked against the message itself, which is deleted only when it is gone or now sits in
// Deleted Items or Junk Email (left out, as a mail client leaves them out of search).
import { z } from 'zod';
import { CREDENTIAL_NAMES, microsoft } from '../../common/strings';
import {
  FatalSourceError,
  NotFoundError,
  ResponseTooLargeError,
  attachmentBlocks,
  cursorSchema as anyCursorSchema,
  defineConnector,
  paginateByNextLink,
  readAttachment,
  userPrincipal,
  type AttachmentText,
  type ConnectorContext,
  type HttpClient,
  type SourceDocument,
  type SourceFile,
  type SyncBatch,
  type UserPrincipal,
} from '../sdk';
import { htmlToDocument } from '../sdk/html';
import {
  appOnlyClient,
  tenantUsers,
  tenantConfigSchema,
  tenantCredentialsSchema,
  type TenantConfig,
  type TenantContext,
  type TenantUser,
} from '../microsoft/app-only';
import {
  MICROSOFT_LOGIN_URL,
  accountEmail,
  graphClient,
  graphCredentialsSchema,
  graphUserSchema,
  microsoftOAuth,
  odataPageSchema,
  timestamp,
  type GraphCredentials,
} from '../microsoft/graph';

/** Delegated Mail.Read: the signed-in member's own mailbox, nothing of anyone else's. */
export const OUTLOOK_SCOPES = ['Mail.Read'] as const;

/** Folders whose mail is not searchable: what was thrown away or filtered out as junk (well-known names). */
const LEFT_OUT_FOLDERS = ['deleteditems', 'junkemail'] as const;

const PAGE_SIZE = 50;
const IMMUTABLE_IDS = `IdType="ImmutableId"`;
const PREFER = [IMMUTABLE_IDS, `outlook.body-content-type="text"`, `odata.maxpagesize=${PAGE_SIZE}`].join(
  ', ',
);
const MESSAGE_FIELDS = [
  'subject',
  'body',
  'from',
  'toRecipients',
  'ccRecipients',
  'receivedDateTime',
  'sentDateTime',
  'createdDateTime',
  'lastModifiedDateTime',
  'conversationId',
  'parentFolderId',
  'webLink',
  'isDraft',
  'hasAttachments',
].join(',');

const recipientSchema = z.object({
  emailAddress: z.object({ name: z.string().nullish(), address: z.string().nullish() }).nullish(),
});
const messageSchema = z.object({
  id: z.string(),
  subject: z.string().nullish(),
  body: z
    .object({ contentType: z.enum(['text', 'html']).nullish(), content: z.string().nullish() })
    .nullish(),
  from: recipientSchema.nullish(),
  toRecipients: z.array(recipientSchema).nullish(),
  ccRecipients: z.array(recipientSchema).nullish(),
  receivedDateTime: timestamp.nullish(),
  sentDateTime: timestamp.nullish(),
  createdDateTime: timestamp.nullish(),
  lastModifiedDateTime: timestamp.nullish(),
  conversationId: z.string().nullish(),
  parentFolderId: z.string().nullish(),
  webLink: z.string().nullish(),
  isDraft: z.boolean().nullish(),
  hasAttachments: z.boolean().nullish(),
});
type Message = z.output<typeof messageSchema>;

/** A delta entry: a message that left the folder (`@removed`), or one as it is now. */
const deltaEntrySchema = z.union([
  z.object({ id: z.string(), '@removed': z.object({ reason: z.string().optional() }) }),
  messageSchema,
]);
const deltaPageSchema = odataPageSchema(deltaEntrySchema);
const folderSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  childFolderCount: z.number().int().nullish(),
});
const idPageSchema = odataPageSchema(z.object({ id: z.string() }));
const attachmentSchema = z.object({
  '@odata.type': z.string().nullish(),
  id: z.string(),
  name: z.string().nullish(),
  contentType: z.string().nullish(),
  size: z.number().nullish(),
});
/** Everything but contentBytes, which the parsers fetch raw, and only when they read the file. */
const ATTACHMENT_FIELDS = 'id,name,contentType,size';
const FILE_ATTACHMENT = '#microsoft.graph.fileAttachment';
const ITEM_ATTACHMENT = '#microsoft.graph.itemAttachment';
/** An item attachment with the Outlook item it holds, expanded; only an attached message is read. */
const itemAttachmentSchema = z.object({ item: z.unknown().optional() });
/**
 * An attachment of an attached mail, as Graph's expanded item holds it: a file's bytes come inline (there is no
 * `$value` address below the top level), an attached mail's item too.
 */
const nestedAttachmentSchema = attachmentSchema.omit({ id: true }).extend({
  isInline: z.boolean().nullish(),
  contentBytes: z.string().nullish(),
  item: z.unknown().optional(),
});
type NestedAttachment = z.output<typeof nestedAttachmentSchema>;
const attachedMessageSchema = messageSchema.omit({ id: true }).extend({
  '@odata.type': z.literal('#microsoft.graph.message'),
  attachments: z.array(nestedAttachmentSchema).nullish(),
});
/**
 * How deep attached mails are read: the message's own (1), one attached to that (2) and one more. Graph nests up to
 * 30 levels; past these a forwarded chain repeats itself, and a deeper mail is only named.
 */
const ATTACHED_MAIL_DEPTH = 3;

/**
 * Per folder: `link` is the address to fetch next (a page of the running round, or the delta link of the finished
 * one; null before the first request) and `caughtUp` whether its first round, the full listing, has ended.
 */
const folderStateSchema = z.object({
  id: z.string(),
  link: z.string().nullable(),
  caughtUp: z.boolean(),
});
type FolderState = z.output<typeof folderStateSchema>;
/** Versioned so a later shape can tell old cursors apart rather than misread them. */
const cursorSchema = z.object({ v: z.literal(1), folders: z.array(folderStateSchema) });
type OutlookCursor = z.output<typeof cursorSchema>;

/** A member's OAuth tokens (individual connection), or the tenant's admin consent (org connection). */
const outlookCredentialsSchema = z.union([graphCredentialsSchema, tenantCredentialsSchema]);
type OutlookContext = ConnectorContext<z.output<typeof outlookCredentialsSchema>, TenantConfig>;
type MemberContext = ConnectorContext<GraphCredentials, TenantConfig>;

const isOrg = (ctx: OutlookContext): ctx is TenantContext => 'marketplace' in ctx.credentials;
const isMember = (ctx: OutlookContext): ctx is MemberContext => !('marketplace' in ctx.credentials);

interface Mailbox {
  readonly api: HttpClient;
  /** Where its calls start: '/me' for the signed-in member, '/users/{id}' for an org connection. */
  readonly root: string;
  readonly owner: UserPrincipal;
  /** Folders synced, in the order they are walked. */
  readonly folders: readonly { id: string; name: string }[];
  readonly leftOut: ReadonlySet<string>;
}

function api(ctx: MemberContext): HttpClient {
  return graphClient(ctx, microsoft.MAIL_ACCESS_NEEDED);
}

async function ownerOf(client: HttpClient): Promise<{ email: string; id: string; name: string | null }> {
  const me = await client.json('/me', graphUserSchema, {
    query: { $select: 'id,displayName,mail,userPrincipalName' },
  });
  const email = accountEmail(me);
  if (email === null) throw new FatalSourceError('outlook: the signed-in account has no email address');
  return { email, id: me.id, name: me.displayName ?? null };
}

/** The mailbox's folders under `parent` (null: its top level), depth first. */
async function* foldersUnder(
  client: HttpClient,
  root: string,
  parent: string | null,
): AsyncGenerator<z.output<typeof folderSchema>> {
  const pages = paginateByNextLink(client, {
    path:
      parent === null
        ? `${root}/mailFolders`
        : `${root}/mailFolders/${encodeURIComponent(parent)}/childFolders`,
    schema: odataPageSchema(folderSchema),
    items: (page) => page.value,
    nextLink: (page) => page['@odata.nextLink'],
    request: { query: { $select: 'id,displayName,childFolderCount', $top: 100 } },
  });
  for await (const page of pages) {
    for (const folder of page.items) {
      yield folder;
      if ((folder.childFolderCount ?? 0) > 0) yield* foldersUnder(client, root, folder.id);
    }
  }
}

/** The mailbox at `root` (its folders to sync), read by `client`, owned by `email`. */
async function openMailbox(client: HttpClient, root: string, email: string): Promise<Mailbox> {
  const leftOut = new Set<string>();
  for (const name of LEFT_OUT_FOLDERS) {
    const folder = await client.json(`${root}/mailFolders/${name}`, folderSchema, {
      query: { $select: 'id' },
    });
    leftOut.add(folder.id);
  }
  const folders: { id: string; name: string }[] = [];
  for await (const folder of foldersUnder(client, root, null)) {
    if (!leftOut.has(folder.id)) folders.push({ id: folder.id, name: folder.displayName ?? '' });
  }
  return { api: client, root, owner: userPrincipal(email), folders, leftOut };
}

async function ownMailbox(ctx: MemberContext): Promise<Mailbox> {
  const client = api(ctx);
  const owner = await ownerOf(client);
  return openMailbox(client, '/me', owner.email);
}

function addressOf(recipient: z.output<typeof recipientSchema> | null | undefined): string | null {
  const address = recipient?.emailAddress?.address?.trim();
  return address ? address.toLowerCase() : null;
}

function named(recipient: z.output<typeof recipientSchema>): string {
  const name = recipient.emailAddress?.name?.trim();
  const address = addressOf(recipient);
  if (name && address && name.toLowerCase() !== address) return `${name} <${address}>`;
  return name || address || '';
}

function bodyText(message: Pick<Message, 'body'>): string {
  const content = message.body?.content ?? '';
  // The Prefer header asks for text; a server that ignores it still sends HTML.
  return message.body?.contentType === 'html' ? htmlToDocument(content).text : content;
}

type MailFields = Omit<Message, 'id'>;

const sentAt = (message: MailFields) =>
  message.sentDateTime ?? message.receivedDateTime ?? message.createdDateTime ?? new Date(0);

/** A mail as its reader sees it: who wrote it to whom and when, then its text. */
function mailText(message: MailFields): string {
  const to = (message.toRecipients ?? []).map(named).filter(Boolean);
  const cc = (message.ccRecipients ?? []).map(named).filter(Boolean);
  const header = [
    message.from ? `From: ${named(message.from)}` : '',
    to.length > 0 ? `To: ${to.join(', ')}` : '',
    cc.length > 0 ? `Cc: ${cc.join(', ')}` : '',
    `Date: ${sentAt(message).toISOString()}`,
  ].filter(Boolean);
  return `${header.join('\n')}\n\n${bodyText(message)}`;
}

/**
 * The text of a mail attached as an Outlook item, from the item Graph expands in the attachment (it lists item
 * attachments without it); null for an attached event or contact, or an attachment gone meanwhile.
 */
async function attachedMailText(ctx: OutlookContext, mailbox: Mailbox, path: string): Promise<string | null> {
  try {
    const { item } = await mailbox.api.json(path, itemAttachmentSchema, {
      query: { $expand: 'microsoft.graph.itemattachment/item' },
      headers: { prefer: PREFER },
    });
    return await attachedItemText(ctx, item, 1);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** A file attachment as Scout's parsers take it: its name, and the type and size Graph declares when it does. */
function attachedFile(
  name: string,
  attachment: { contentType?: string | null; size?: number | null },
): SourceFile {
  return {
    name,
    ...(attachment.contentType ? { mimeType: attachment.contentType } : {}),
    ...(typeof attachment.size === 'number' ? { size: attachment.size } : {}),
  };
}

/**
 * An attached item's text when it is a mail (`depth` levels below the message): its subject, header and body, then
 * its own attachments as a message's are written.
 */
async function attachedItemText(ctx: OutlookContext, item: unknown, depth: number): Promise<string | null> {
  const attached = attachedMessageSchema.safeParse(item);
  if (!attached.success) return null;
  const subject = attached.data.subject?.trim();
  const header = [subject ? `Subject: ${subject}` : '', mailText(attached.data)].filter(Boolean).join('\n');
  const nested = await nestedAttachmentsOf(ctx, attached.data.attachments ?? [], depth);
  return [header, ...attachmentBlocks(nested)].join('\n\n');
}

/**
 * The named attachments of a mail attached `depth` levels below the message: files read by Scout's parsers from
 * the bytes Graph sent inline, within the same limits as a download, and mails read while under the depth limit.
 * Inline pictures (signatures) are left out, as Graph leaves them out of a message's own attachments.
 */
async function nestedAttachmentsOf(
  ctx: OutlookContext,
  attachments: readonly NestedAttachment[],
  depth: number,
): Promise<AttachmentText[]> {
  const read: AttachmentText[] = [];
  for (const attachment of attachments) {
    const name = attachment.name?.trim();
    if (!name || attachment.isInline) continue;
    if (attachment['@odata.type'] === ITEM_ATTACHMENT) {
      read.push({
        name,
        text: depth < ATTACHED_MAIL_DEPTH ? await attachedItemText(ctx, attachment.item, depth + 1) : null,
      });
      continue;
    }
    const bytes = attachment['@odata.type'] === FILE_ATTACHMENT ? attachment.contentBytes : null;
    const text = bytes
      ? await readAttachment(ctx.files, attachedFile(name, attachment), async (limits) => {
          const content = Buffer.from(bytes, 'base64');
          // The size Graph declares may understate what it sent; the parsing limit holds either way.
          if (content.byteLength > limits.maxBodyBytes)
            throw new ResponseTooLargeError('GET', 'attached item', limits.maxBodyBytes);
          return content;
        })
      : null;
    read.push({ name, text });
  }
  return read;
}

/**
 * The message's named attachments, each file's text read by Scout's parsers where they read it and each attached
 * mail's text as it reads.
 */
async function attachmentsOf(
  ctx: OutlookContext,
  mailbox: Mailbox,
  message: Message,
): Promise<AttachmentText[]> {
  // Graph counts only attachments shown as such, leaving out inline images (signatures, pasted pictures).
  if (!message.hasAttachments) return [];
  const path = `${mailbox.root}/messages/${encodeURIComponent(message.id)}/attachments`;
  const attachments: AttachmentText[] = [];
  const pages = paginateByNextLink(mailbox.api, {
    path,
    schema: odataPageSchema(attachmentSchema),
    items: (page) => page.value,
    nextLink: (page) => page['@odata.nextLink'],
    request: { query: { $select: ATTACHMENT_FIELDS }, headers: { prefer: IMMUTABLE_IDS } },
  });
  try {
    for await (const page of pages) {
      for (const attachment of page.items) {
        const name = attachment.name?.trim();
        if (!name) continue;
        const at = `${path}/${encodeURIComponent(attachment.id)}`;
        if (attachment['@odata.type'] === ITEM_ATTACHMENT) {
          attachments.push({ name, text: await attachedMailText(ctx, mailbox, at) });
          continue;
        }
        const text =
          attachment['@odata.type'] === FILE_ATTACHMENT
            ? await readAttachment(ctx.files, attachedFile(name, attachment), async (limits) => {
                return (
                  await mailbox.api.request(`${at}/$value`, {
                    ...limits,
                    headers: { prefer: IMMUTABLE_IDS },
                  })
                ).body;
              })
            : null;
        attachments.push({ name, text });
      }
    }
  } catch (error) {
    // The message was deleted since its folder's delta listed it: the next delta round removes it.
    if (!(error instanceof NotFoundError)) throw error;
  }
  return attachments;
}

function toDocument(
  message: Message,
  mailbox: Mailbox,
  folderName: string,
  attachments: readonly AttachmentText[],
): SourceDocument {
  const sent = sentAt(message);
  const from = message.from?.emailAddress;
  const fromAddress = addressOf(message.from);
  const link = z.url({ protocol: /^https?$/ }).safeParse(message.webLink);
  return {
    externalId: message.id,
    title: message.subject?.trim() || microsoft.NO_SUBJECT,
    url: link.success
      ? link.data
      : `https://outlook.office.com/mail/deeplink/read/${encodeURIComponent(message.id)}`,
    body: [mailText(message), ...attachmentBlocks(attachments)].join('\n\n'),
    author: {
      ...(from?.name?.trim() ? { name: from.name.trim() } : {}),
      ...(fromAddress && z.email().safeParse(fromAddress).success ? { email: fromAddress } : {}),
    },
    objectType: 'Messages',
    fileType: 'email',
    createdTime: sent,
    modifiedTime: message.lastModifiedDateTime ?? sent,
    // The mailbox is its owner's alone, whoever connected it and whatever the message's recipients.
    acl: [mailbox.owner],
    extra: {
      folder: folderName,
      ...(fromAddress ? { from: fromAddress } : {}),
      to: (message.toRecipients ?? []).flatMap((recipient) => addressOf(recipient) ?? []),
      hasAttachments: message.hasAttachments ?? false,
      attachments: attachments.map((attachment) => attachment.name),
    },
    ...(message.conversationId ? { parentExternalId: message.conversationId } : {}),
  };
}

/**
 * What a delta's removal means: the message itself says whether it is gone (or thrown away) or only moved to
 * another synced folder, in which case it is delivered as it is now.
 */
async function resolveRemoval(
  ctx: OutlookContext,
  mailbox: Mailbox,
  id: string,
): Promise<{ document: SourceDocument } | { deleted: string }> {
  let message: Message;
  try {
    message = await mailbox.api.json(`${mailbox.root}/messages/${encodeURIComponent(id)}`, messageSchema, {
      query: { $select: MESSAGE_FIELDS },
      headers: { prefer: PREFER },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return { deleted: id };
    throw error;
  }
  const folder = mailbox.folders.find((candidate) => candidate.id === message.parentFolderId);
  if (!folder || message.isDraft) return { deleted: id };
  return { document: toDocument(message, mailbox, folder.name, await attachmentsOf(ctx, mailbox, message)) };
}

/** A folder's delta from where its state stands to a fresh delta link, one batch per page. */
async function* walkFolder(
  ctx: OutlookContext,
  mailbox: Mailbox,
  states: FolderState[],
  index: number,
): AsyncGenerator<SyncBatch> {
  const state = states[index] as FolderState;
  const folder = mailbox.folders[index] as { id: string; name: string };
  const windowStart = ctx.syncWindowStart;
  const span = Math.max(1, ctx.now().getTime() - windowStart.getTime());
  const pages = paginateByNextLink(mailbox.api, {
    path: `${mailbox.root}/mailFolders/${encodeURIComponent(folder.id)}/messages/delta`,
    schema: deltaPageSchema,
    items: (page) => page.value,
    nextLink: (page) => page['@odata.nextLink'],
    startUrl: state.link,
    // Graph allows only these two on a message delta: newest first, back to the start of the 3-year window.
    request: {
      query: {
        $select: MESSAGE_FIELDS,
        $filter: `receivedDateTime ge ${windowStart.toISOString()}`,
        $orderby: 'receivedDateTime desc',
      },
      headers: { prefer: PREFER },
    },
  });
  for await (const page of pages) {
    const documents: SourceDocument[] = [];
    const deleted: string[] = [];
    let oldest: Date | undefined;
    for (const entry of page.items) {
      if ('@removed' in entry) {
        const outcome = await resolveRemoval(ctx, mailbox, entry.id);
        if ('deleted' in outcome) deleted.push(outcome.deleted);
        else documents.push(outcome.document);
        continue;
      }
      const message = entry;
      if (message.receivedDateTime && (!oldest || message.receivedDateTime < oldest))
        oldest = message.receivedDateTime;
      if (message.isDraft) deleted.push(message.id);
      else
        documents.push(toDocument(message, mailbox, folder.name, await attachmentsOf(ctx, mailbox, message)));
    }
    const deltaLink = page.body['@odata.deltaLink'];
    if (page.next === null && deltaLink === undefined)
      throw new FatalSourceError('outlook: a delta round ended without a delta link');
    states[index] =
      page.next === null
        ? { ...state, link: deltaLink ?? null, caughtUp: true }
        : { ...state, link: page.next };
    const cursor: OutlookCursor = { v: 1, folders: states.map((entry) => ({ ...entry })) };
    // The first round walks a folder newest first: progress is the folders done plus how far back this one is.
    const within =
      state.caughtUp || page.next === null ? 1 : oldest ? (ctx.now().getTime() - oldest.getTime()) / span : 0;
    const share = (index + Math.min(1, Math.max(0, within))) / mailbox.folders.length;
    yield {
      documents,
      deletedExternalIds: deleted,
      cursor,
      ...(state.caughtUp ? {} : { progress: { share } }),
    };
  }
}

/** Every synced folder from its saved state (a new folder from the start), in order. */
async function* syncMailbox(
  ctx: OutlookContext,
  mailbox: Mailbox,
  saved: OutlookCursor | null,
): AsyncGenerator<SyncBatch> {
  const previous = new Map((saved?.folders ?? []).map((state) => [state.id, state]));
  const states: FolderState[] = mailbox.folders.map(
    (folder) => previous.get(folder.id) ?? { id: folder.id, link: null, caughtUp: false },
  );
  for (let index = 0; index < states.length; index += 1) {
    ctx.signal.throwIfAborted();
    yield* walkFolder(ctx, mailbox, states, index);
  }
}

/** Every message id of the mailbox in the window, for pruning. */
async function* mailboxIds(ctx: OutlookContext, mailbox: Mailbox): AsyncGenerator<string[]> {
  for (const folder of mailbox.folders) {
    const pages = paginateByNextLink(mailbox.api, {
      path: `${mailbox.root}/mailFolders/${encodeURIComponent(folder.id)}/messages`,
      schema: idPageSchema,
      items: (page) => page.value,
      nextLink: (page) => page['@odata.nextLink'],
      request: {
        query: {
          $select: 'id',
          $filter: `receivedDateTime ge ${ctx.syncWindowStart.toISOString()}`,
          $top: 500,
        },
        headers: { prefer: IMMUTABLE_IDS },
      },
    });
    for await (const page of pages) yield page.items.map((message) => message.id);
  }
}

function member(ctx: OutlookContext): MemberContext {
  if (!isMember(ctx)) throw new FatalSourceError('outlook: an org connection has no signed-in member');
  return ctx;
}

// ── The org connection: every mailbox of the tenant ───────────────────────────────────────────────────────

/** Mail.Read and User.Read.All as application permissions, granted by the admin consent. */
const orgApi = (ctx: TenantContext) =>
  appOnlyClient(ctx, 'outlook', { credentialName: CREDENTIAL_NAMES.accessToken });

/** Each mailbox's place, as the individual connection's cursor, and the address its documents are readable by. */
const orgCursorSchema = z.object({
  v: z.literal(1),
  users: z.record(z.string(), z.object({ email: z.email(), cursor: anyCursorSchema })),
});
type OrgCursor = z.output<typeof orgCursorSchema>;

/**
 * The user's mailbox, or null when Graph has none to read (no Exchange Online licence, a mailbox on premises, or
 * the user deleted since the listing): 404 at its folders.
 */
async function userMailbox(client: HttpClient, user: TenantUser): Promise<Mailbox | null> {
  try {
    return await openMailbox(client, `/users/${encodeURIComponent(user.id)}`, user.email);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** Two mailboxes may number their messages alike, so each id is prefixed with its mailbox's user id. */
const namespaced = (userId: string, id: string) => `${userId}/${id}`;

function ofUser(userId: string, batch: SyncBatch): Pick<SyncBatch, 'documents' | 'deletedExternalIds'> {
  return {
    documents: batch.documents.map((document) => ({
      ...document,
      externalId: namespaced(userId, document.externalId),
      ...(document.parentExternalId
        ? { parentExternalId: namespaced(userId, document.parentExternalId) }
        : {}),
    })),
    deletedExternalIds: (batch.deletedExternalIds ?? []).map((id) => namespaced(userId, id)),
  };
}

/**
 * One pass over every mailbox: each continues from its saved place (one whose owner's address changed starts
 * again, so every message is re-delivered readable by the new address), a new one from the start, and a user gone,
 * disabled or without a mailbox drops out, pruning then removing their mail. Every batch's cursor holds every
 * mailbox's place, so a killed sync resumes where it stopped. Progress is the share of mailboxes done.
 */
async function* everyMailbox(ctx: TenantContext, saved: OrgCursor | null): AsyncGenerator<SyncBatch> {
  const client = orgApi(ctx);
  const users = await tenantUsers(client);
  const state: OrgCursor = { v: 1, users: {} };
  for (const user of users) {
    const place = saved?.users[user.id];
    if (place?.email === user.email) state.users[user.id] = place;
  }
  for (const [index, user] of users.entries()) {
    ctx.signal.throwIfAborted();
    const mailbox = await userMailbox(client, user);
    if (mailbox === null) {
      delete state.users[user.id];
      continue;
    }
    const place = cursorSchema.safeParse(state.users[user.id]?.cursor);
    for await (const batch of syncMailbox(ctx, mailbox, place.success ? place.data : null)) {
      state.users[user.id] = { email: user.email, cursor: batch.cursor };
      yield {
        ...ofUser(user.id, batch),
        cursor: structuredClone(state),
        progress: { share: index / users.length },
      };
    }
  }
  yield { documents: [], cursor: structuredClone(state), progress: { share: 1 } };
}

/** Builds the connector; tests point the OAuth endpoints at a fake identity platform. */
export function createOutlookConnector(options: { loginUrl?: string } = {}) {
  return defineConnector({
    shortname: 'outlook',
    installPayload: { org: 'marketplace', individual: 'oauth' },
    credentialsSchema: outlookCredentialsSchema,
    configSchema: tenantConfigSchema,
    credentialFields: [],
    credentialName: CREDENTIAL_NAMES.accessToken,
    // Graph's throttling page gives Outlook limits of its own, apart from SharePoint's and Teams': 4 concurrent
    // requests and 10,000 requests per 10 minutes per app and mailbox. So Outlook keeps its own vendor, and each
    // connection (one member's mailbox) has its own limiter; an org connection holds all its mailboxes to one
    // mailbox's allowance, stricter than Exchange, never looser.
    limits: { concurrency: 4, rate: { requests: 10_000, intervalMs: 600_000 } },
    limitScope: 'connection',
    oauth: microsoftOAuth(OUTLOOK_SCOPES, options.loginUrl ?? MICROSOFT_LOGIN_URL),

    async validate(ctx) {
      if (isOrg(ctx)) {
        const client = orgApi(ctx);
        // Listing the directory proves User.Read.All; the admin's own mailbox, when they have one, Mail.Read.
        await client.json('/users', odataPageSchema(graphUserSchema), { query: { $select: 'id', $top: 1 } });
        const admin = ctx.credentials.email.toLowerCase();
        try {
          await client.json(`/users/${encodeURIComponent(admin)}/mailFolders/inbox`, folderSchema, {
            query: { $select: 'id' },
          });
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
        return { email: admin, workspaceName: admin.split('@')[1] };
      }
      const client = api(member(ctx));
      const owner = await ownerOf(client);
      // Proves Mail.Read was granted: /me alone answers with User.Read.
      await client.json('/me/mailFolders/inbox', folderSchema, { query: { $select: 'id' } });
      return {
        email: owner.email,
        appUserId: owner.id,
        ...(owner.name ? { workspaceName: owner.name } : {}),
      };
    },

    async *fullSync(ctx) {
      if (isOrg(ctx)) yield* everyMailbox(ctx, null);
      else yield* syncMailbox(ctx, await ownMailbox(member(ctx)), null);
    },

    async *incrementalSync(ctx, saved) {
      if (isOrg(ctx)) {
        const cursor = orgCursorSchema.safeParse(saved);
        if (!cursor.success)
          ctx.logger.warn({ connector: 'outlook' }, 'unreadable cursor, running a full sync');
        yield* everyMailbox(ctx, cursor.success ? cursor.data : null);
        return;
      }
      const cursor = cursorSchema.safeParse(saved);
      if (!cursor.success)
        ctx.logger.warn({ connector: 'outlook' }, 'unreadable cursor, running a full sync');
      yield* syncMailbox(ctx, await ownMailbox(member(ctx)), cursor.success ? cursor.data : null);
    },

    async *listIds(ctx) {
      if (!isOrg(ctx)) {
        yield* mailboxIds(ctx, await ownMailbox(member(ctx)));
        return;
      }
      const client = orgApi(ctx);
      for (const user of await tenantUsers(client)) {
        const mailbox = await userMailbox(client, user);
        if (mailbox === null) continue;
        for await (const ids of mailboxIds(ctx, mailbox)) yield ids.map((id) => namespaced(user.id, id));
      }
    },
  });
}

export const outlookConnector = createOutlookConnector();
