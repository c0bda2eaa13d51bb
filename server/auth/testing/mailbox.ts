/**
 * A real SMTP server on 127.0.0.1 for tests, without TLS or authentication (a plain local relay), that keeps what
 * it receives. Point the server at it with `SMTP_URL: mailbox.url`.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string };

export type TestMailbox = {
  url: string;
  readonly received: ReceivedMail[];
  /**
   * Mail received for this address so far. The server mails off the request path (so how long it takes tells no
   * one whether an address is a member), so a call's mail may arrive after its answer: use `waitFor`.
   */
  to(address: string): ReceivedMail[];
  /** The `count`-th mail for this address (1-based), waiting up to `timeoutMs` for it to arrive. */
  waitFor(address: string, count: number, timeoutMs?: number): Promise<ReceivedMail>;
  /** The latest mail for this address; throws when there is none. */
  latest(address: string): ReceivedMail;
  close(): Promise<void>;
};

/** `replyDelayMs`: how long the server waits before accepting each mail, like a slow relay. */
export async function startMailbox(options: { replyDelayMs?: number } = {}): Promise<TestMailbox> {
  const received: ReceivedMail[] = [];
  const to = (address: string) => received.filter((mail) => mail.to.includes(address.toLowerCase()));

  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        setTimeout(() => {
          received.push(mail);
          callback();
        }, options.replyDelayMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to,
    latest(address) {
      const mail = to(address).at(-1);
      if (!mail) throw new Error(`no mail for ${address}`);
      return mail;
    },
    async waitFor(address, count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = to(address)[count - 1];
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`mail ${count} for ${address} did not arrive`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The login code in a mail (4 groups of 5 characters of the code alphabet). */
export function loginCodeIn(mail: ReceivedMail): string {
  const code = /\b[A-Z2-9]{5}-[A-Z2-9]{5}-[A-Z2-9]{5}-[A-Z2-9]{5}\b/.exec(mail.raw)?.[0];
  if (!code) throw new Error(`no login code in mail:\n${mail.raw}`);
  return code;
}
