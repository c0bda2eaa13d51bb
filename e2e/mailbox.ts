import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as received, with its plain-text part decoded. */
export type ReceivedMail = { to: string[]; subject: string; text: string };

export type Mailbox = {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Recipients whose RCPT TO is refused, so sending to them fails as a bouncing server would. */
  refuse: Set<string>;
  /** The first mail to `to` received after `since` (a count of messages), waiting for it to arrive. */
  waitFor(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
};

function splitHeaders(raw: string): { headers: string; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at === -1) return { headers: raw, body: '' };
  const gap = raw.slice(at).match(/^\r?\n\r?\n/)?.[0].length ?? 2;
  return { headers: raw.slice(0, at).replace(/\r?\n[ \t]+/g, ' '), body: raw.slice(at + gap) };
}

function header(headers: string, name: string): string {
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return Buffer.from(body, 'latin1').toString('utf8');
}

/** The text/plain part of a MIME message (nodemailer sends multipart/alternative when there is HTML too). */
function plainText(raw: string): string {
  const { headers, body } = splitHeaders(raw);
  const type = header(headers, 'Content-Type');
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      const text = plainText(part.replace(/^\r?\n/, ''));
      if (text) return text;
    }
    return '';
  }
  if (type && !/^text\/plain/i.test(type)) return '';
  return decodeBody(body, header(headers, 'Content-Transfer-Encoding').toLowerCase());
}

/**
 * A real SMTP server on 127.0.0.1 (port 0, no auth, no STARTTLS, like a local relay) that keeps what it receives, so a
 * test reads the very mail Scout sent: the login code, the sign-in link, the invite.
 */
export async function startMailbox(): Promise<Mailbox> {
  const messages: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        messages.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: header(splitHeaders(raw).headers, 'Subject'),
          text: plainText(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuse,
    async waitFor(to, { since = 0, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = messages.slice(since).find((message) => message.to.includes(to.toLowerCase()));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
