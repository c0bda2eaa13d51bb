// Slack messages as Scout documents. A message with replies is one document holding its whole thread, so a hit
// on a reply brings the question it answers; a message without replies is a document of its own, because it is
// what Slack's permalink opens and what Slack edits or deletes: an edit re-indexes one document, a deletion
// prunes one, and no stale neighbour survives in a shared day-document. Files shared in a channel, at its top
// level or in a thread's reply, are documents of their own, with the text Scout's parsers read from them, and are
// named with their links in the document of the message or thread that shared them.
import { z } from 'zod';
import { groupPrincipal, type Principal, type SourceDocument } from '../sdk';

export const SHORTNAME = 'slack';
/** Everyone who is a full member of the workspace: Slack lets them read every public channel. */
export const FULL_MEMBERS_GROUP = 'workspace-full-members';

const TITLE_CHARS = 80;

export const fileSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  title: z.string().optional(),
  filetype: z.string().optional(),
  pretty_type: z.string().optional(),
  permalink: z.string().optional(),
  url_private_download: z.string().optional(),
  mimetype: z.string().optional(),
  size: z.number().optional(),
  mode: z.string().optional(),
  created: z.number().optional(),
  user: z.string().optional(),
  preview: z.string().optional(),
  plain_text: z.string().optional(),
  file_access: z.string().optional(),
});
export type SlackFile = z.output<typeof fileSchema>;

/**
 * A file shared over Slack Connect from another organisation can come as a stub: its id, and Slack's word that only
 * files.info tells the rest (name, permalink, download address).
 */
export const isFileStub = (file: SlackFile) => file.file_access === 'check_file_info';

export const messageSchema = z.object({
  ts: z.string().regex(/^\d+(\.\d+)?$/),
  text: z.string().default(''),
  user: z.string().optional(),
  username: z.string().optional(),
  bot_profile: z.object({ name: z.string().optional() }).optional(),
  subtype: z.string().optional(),
  thread_ts: z.string().optional(),
  reply_count: z.number().optional(),
  latest_reply: z.string().optional(),
  edited: z.object({ ts: z.string() }).optional(),
  files: z.array(fileSchema).optional(),
});
export type SlackMessage = z.output<typeof messageSchema>;

export const channelSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  is_private: z.boolean().default(false),
  is_member: z.boolean().default(false),
});
export type SlackChannel = z.output<typeof channelSchema>;

/** Channel events (joins, topic changes, pins…) say nothing worth finding. */
const SKIPPED_SUBTYPE = /^(channel_|group_|bot_add|bot_remove|pinned_item|unpinned_item)/;

/**
 * The messages of a page worth reading, as Slack sent them. In a channel's history, a reply that was also sent to
 * the channel is left to its thread's document; `replies` reads a thread, where replies are the point.
 */
export function readableMessages(
  raw: readonly unknown[] | undefined,
  options: { replies?: boolean } = {},
): SlackMessage[] {
  return (raw ?? []).flatMap((item) => {
    const parsed = messageSchema.safeParse(item);
    if (!parsed.success) return [];
    const message = parsed.data;
    if (message.subtype !== undefined && SKIPPED_SUBTYPE.test(message.subtype)) return [];
    if (!options.replies && message.thread_ts !== undefined && message.thread_ts !== message.ts) return [];
    return [message];
  });
}

export const isThread = (message: SlackMessage) => (message.reply_count ?? 0) > 0;

/**
 * Files worth a document: Slack keeps a tombstone of a deleted file, and hides files over a free plan's limit. A
 * stub counts, to be completed with files.info before a document is made of it.
 */
export function shownFiles(message: SlackMessage): SlackFile[] {
  return (message.files ?? []).filter(
    (file) =>
      (file.permalink !== undefined || isFileStub(file)) &&
      file.mode !== 'tombstone' &&
      file.mode !== 'hidden_by_limit',
  );
}

export const messageId = (channelId: string, ts: string) => `${channelId}/${ts}`;
export const fileId = (channelId: string, ts: string, file: SlackFile) => `${channelId}/${ts}/${file.id}`;

/** The channel id a document id starts with. */
export const channelOfId = (externalId: string) => externalId.split('/')[0] ?? '';

/** Who may read a channel's messages, as Slack decides it (see the README). */
export function channelAcl(channel: Pick<SlackChannel, 'id' | 'is_private'>): Principal[] {
  const members = groupPrincipal(SHORTNAME, channel.id);
  return channel.is_private ? [members] : [members, groupPrincipal(SHORTNAME, FULL_MEMBERS_GROUP)];
}

export interface Person {
  readonly name: string;
  readonly email?: string;
}

/** The people a message names, resolved before a page is rendered. */
export type People = ReadonlyMap<string, Person | null>;

/** The user ids a message mentions or is written by, to resolve before rendering. */
export function userIdsOf(messages: readonly SlackMessage[]): string[] {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.user) ids.add(message.user);
    for (const match of message.text.matchAll(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g)) ids.add(match[1] ?? '');
  }
  ids.delete('');
  return [...ids];
}

/** Slack's mrkdwn markup as the words a reader sees: mentions by name, links by label, entities decoded. */
export function plainText(text: string, people: People): string {
  return text
    .replace(/<@([UW][A-Z0-9]+)(?:\|([^>]*))?>/g, (_, id: string, label?: string) => {
      const name = people.get(id)?.name ?? label;
      return name ? `@${name}` : '@someone';
    })
    .replace(/<#[CG][A-Z0-9]+\|([^>]*)>/g, (_, name: string) => `#${name}`)
    .replace(/<#[CG][A-Z0-9]+>/g, '#channel')
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, (_, who: string) => `@${who}`)
    .replace(/<!subteam\^[A-Z0-9]+\|([^>]*)>/g, (_, handle: string) => handle)
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, (_, url: string, label: string) => `${label} (${url})`)
    .replace(/<(https?:[^>]+)>/g, (_, url: string) => url)
    .replace(/<mailto:([^|>]+)(?:\|[^>]*)?>/g, (_, email: string) => email)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export const tsDate = (ts: string) => new Date(Math.floor(Number(ts) * 1000));

/** The latest instant a message says anything happened to it: posted, edited, replied to. */
export function lastActivity(message: SlackMessage): string {
  return [message.ts, message.edited?.ts, message.latest_reply]
    .filter((ts): ts is string => ts !== undefined)
    .reduce((a, b) => (Number(b) > Number(a) ? b : a));
}

/** Whether anything in `messages` was posted or edited after `since` (a Slack ts). */
export function changedSince(messages: readonly SlackMessage[], since: string): boolean {
  const mark = Number(since);
  return messages.some((message) => Number(message.ts) > mark || Number(message.edited?.ts ?? 0) > mark);
}

export interface Workspace {
  /** `https://acme.slack.com/`, from auth.test. */
  readonly url: string;
}

function permalink(workspace: Workspace, channelId: string, ts: string): string {
  return `${workspace.url.replace(/\/+$/, '')}/archives/${channelId}/p${ts.replace('.', '')}`;
}

function authorOf(message: SlackMessage, people: People): Person {
  const person = message.user === undefined ? undefined : people.get(message.user);
  if (person) return person;
  return { name: message.bot_profile?.name ?? message.username ?? 'Unknown' };
}

function fileLine(file: SlackFile): string {
  const name = file.title || file.name || file.id;
  return `[${name}](${file.permalink ?? ''})`;
}

function line(message: SlackMessage, people: People): string {
  const text = plainText(message.text, people);
  const files = shownFiles(message).map(fileLine);
  return [`${authorOf(message, people).name}: ${text}`, ...files].join('\n');
}

function titleOf(channel: SlackChannel, message: SlackMessage, people: People): string {
  const first = plainText(message.text, people)
    .split('\n')
    .map((part) => part.trim())
    .find((part) => part !== '');
  const fallback = shownFiles(message)[0];
  const words = first ?? (fallback ? fallback.title || fallback.name : undefined);
  if (!words) return `#${channel.name}`;
  const short = words.length > TITLE_CHARS ? `${words.slice(0, TITLE_CHARS - 1)}…` : words;
  return `#${channel.name}: ${short}`;
}

function authorField(person: Person): SourceDocument['author'] {
  return person.email ? { name: person.name, email: person.email } : { name: person.name };
}

/** One message, or a thread when `replies` are given (the parent first, as conversations.replies lists it). */
export function messageDocument(
  workspace: Workspace,
  channel: SlackChannel,
  thread: readonly SlackMessage[],
  people: People,
): SourceDocument {
  const [parent, ...replies] = thread;
  if (!parent) throw new Error('a message document needs its message');
  const modified = thread.map(lastActivity).reduce((a, b) => (Number(b) > Number(a) ? b : a));
  return {
    externalId: messageId(channel.id, parent.ts),
    title: titleOf(channel, parent, people),
    url: permalink(workspace, channel.id, parent.ts),
    body: thread.map((message) => line(message, people)).join('\n\n'),
    author: authorField(authorOf(parent, people)),
    objectType: 'Messages',
    fileType: replies.length > 0 ? 'thread' : 'message',
    createdTime: tsDate(parent.ts),
    modifiedTime: tsDate(modified),
    acl: channelAcl(channel),
    extra: { channel: channel.name, channelId: channel.id, replies: replies.length },
  };
}

/** A canvas is a file Slack types 'quip' (its document engine); other types keep Slack's own name. */
function fileTypeOf(file: SlackFile): string {
  if (file.filetype === 'quip' || file.filetype === 'canvas') return 'canvas';
  const type = (file.filetype ?? '').toLowerCase().replace(/[^a-z0-9.+-]/g, '');
  return /^[a-z0-9]/.test(type) ? type : 'file';
}

/**
 * A file shared in a channel, by a top-level message or a thread's reply, addressed by its permalink; `text` is
 * what the parsers read. Its parent is the document of the message that shared it, or of that reply's thread.
 */
export function fileDocument(
  channel: SlackChannel,
  message: SlackMessage,
  file: SlackFile,
  people: People,
  text: string | null,
): SourceDocument {
  const title = file.title || file.name || file.id;
  const sharer = authorOf(message, people);
  const uploader = file.user === undefined ? undefined : people.get(file.user);
  const preview = file.plain_text ?? file.preview ?? '';
  return {
    externalId: fileId(channel.id, message.ts, file),
    title,
    url: file.permalink ?? '',
    body: [
      title,
      file.name && file.name !== title ? file.name : '',
      plainText(message.text, people),
      text ?? preview,
    ]
      .filter((part) => part !== '')
      .join('\n\n'),
    author: authorField(uploader ?? sharer),
    objectType: 'Files',
    fileType: fileTypeOf(file),
    createdTime: file.created === undefined ? tsDate(message.ts) : new Date(file.created * 1000),
    modifiedTime: tsDate(lastActivity(message)),
    acl: channelAcl(channel),
    extra: {
      channel: channel.name,
      channelId: channel.id,
      ...(file.pretty_type ? { kind: file.pretty_type } : {}),
    },
    parentExternalId: messageId(channel.id, message.thread_ts ?? message.ts),
  };
}
