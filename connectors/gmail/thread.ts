// A Gmail thread as one document: the subject as its title, then each message in order with its sender, date, text
// and the names of its attachments. Messages in the bin or in spam are left out, as Gmail's own search leaves
// them out; a thread with nothing else left is gone as far as Scout is concerned.
import type { gmail_v1 } from '@googleapis/gmail';
import { google as googleStrings } from '../../common/strings';
import { attachmentBlocks, userPrincipal, type SourceDocument } from '../sdk';
import { htmlToDocument } from '../sdk/html';

type Message = gmail_v1.Schema$Message;
type MessagePart = gmail_v1.Schema$MessagePart;

const HIDDEN_LABELS = new Set(['TRASH', 'SPAM']);

export function visibleMessages(thread: gmail_v1.Schema$Thread): Message[] {
  return (thread.messages ?? []).filter(
    (message) => !(message.labelIds ?? []).some((label) => HIDDEN_LABELS.has(label)),
  );
}

function header(message: Message, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const value = message.payload?.headers?.find((entry) => entry.name?.toLowerCase() === wanted)?.value;
  return value?.trim() || undefined;
}

/** `Ada Lovelace <ada@example.com>` → name and address; a bare address has no name. */
export function parseMailbox(value: string | undefined): { name?: string; email?: string } {
  if (value === undefined) return {};
  const angled = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  const name = angled?.[1]?.trim();
  const email = (angled?.[2] ?? value).trim().toLowerCase();
  const valid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
  return { ...(name ? { name } : {}), ...(valid ? { email } : {}) };
}

function decodeBody(data: string | null | undefined): string {
  return data ? Buffer.from(data, 'base64url').toString('utf8') : '';
}

function* walkParts(part: MessagePart | undefined): Generator<MessagePart> {
  if (!part) return;
  const stack: MessagePart[] = [part];
  for (let current = stack.shift(); current !== undefined; current = stack.shift()) {
    yield current;
    stack.unshift(...(current.parts ?? []));
  }
}

const isAttachment = (part: MessagePart) => Boolean(part.filename);

/** The message's attached files, in order. */
export function attachmentParts(message: Message): MessagePart[] {
  return [...walkParts(message.payload)].filter(isAttachment);
}

/** The key of an attachment's text in a thread's AttachmentTexts. */
export const attachmentKey = (message: Message, part: MessagePart) =>
  `${message.id ?? ''}/${part.partId ?? ''}`;

/** The text Scout's parsers read from a thread's attachments, by attachmentKey. */
export type AttachmentTexts = ReadonlyMap<string, string>;

/** The message's text: its first text/plain part, else its first HTML part as text. */
export function messageText(message: Message): string {
  const parts = [...walkParts(message.payload)].filter((part) => !isAttachment(part));
  const plain = parts.find((part) => part.mimeType === 'text/plain');
  if (plain) return decodeBody(plain.body?.data).trim();
  const html = parts.find((part) => part.mimeType === 'text/html');
  return html ? htmlToDocument(decodeBody(html.body?.data)).text.trim() : '';
}

export function attachmentNames(message: Message): string[] {
  return attachmentParts(message).flatMap((part) => (part.filename ? [part.filename] : []));
}

function sentAt(message: Message): Date {
  const ms = Number(message.internalDate);
  return Number.isFinite(ms) ? new Date(ms) : new Date(0);
}

/** When the thread last changed: its newest visible message. */
export function threadTime(messages: readonly Message[]): Date {
  return messages.reduce((latest, message) => {
    const at = sentAt(message);
    return at > latest ? at : latest;
  }, new Date(0));
}

function messageSection(message: Message, texts: AttachmentTexts): string {
  const from = header(message, 'From') ?? '';
  const lines = [`From: ${from}`, `Date: ${sentAt(message).toISOString()}`];
  const to = header(message, 'To');
  if (to) lines.push(`To: ${to}`);
  const attachments = attachmentParts(message).map((part) => ({
    name: part.filename ?? '',
    text: texts.get(attachmentKey(message, part)) ?? null,
  }));
  return [lines.join('\n'), messageText(message), ...attachmentBlocks(attachments)]
    .filter((block) => block !== '')
    .join('\n\n');
}

/** The address Gmail opens the thread at, in the mailbox it belongs to. */
export function threadUrl(mailbox: string, threadId: string): string {
  return `https://mail.google.com/mail/?authuser=${encodeURIComponent(mailbox)}#all/${encodeURIComponent(threadId)}`;
}

/**
 * The document of a thread, or null when none of its messages is visible. Readable by the mailbox's owner alone:
 * mail is personal even when an admin connects it for the organisation.
 */
export function threadDocument(
  thread: gmail_v1.Schema$Thread,
  mailbox: string,
  texts: AttachmentTexts,
): SourceDocument | null {
  const messages = visibleMessages(thread).sort((a, b) => sentAt(a).getTime() - sentAt(b).getTime());
  const first = messages[0];
  if (!thread.id || first === undefined) return null;
  const author = parseMailbox(header(first, 'From'));
  const senders = [
    ...new Set(messages.flatMap((message) => parseMailbox(header(message, 'From')).email ?? [])),
  ];
  const attachments = messages.flatMap(attachmentNames);
  return {
    externalId: thread.id,
    title: header(first, 'Subject') ?? googleStrings.NO_SUBJECT,
    url: threadUrl(mailbox, thread.id),
    body: messages.map((message) => messageSection(message, texts)).join('\n\n---\n\n'),
    author,
    objectType: 'Messages',
    fileType: 'email',
    createdTime: sentAt(first),
    modifiedTime: threadTime(messages),
    acl: [userPrincipal(mailbox)],
    extra: { from: senders, messages: messages.length, attachments },
  };
}
