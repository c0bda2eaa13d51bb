import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from '../email/mailer';
import { inviteLink, inviteMail } from './invite-mail';

describe('the invite mail without SMTP', () => {
  it('writes one log line naming the recipient and the sign-in link', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const mailer = createMailer({ from: 'Scout <no-reply@scout.test>', logger: pino(sink) });
    const link = inviteLink('http://localhost:3000/', 'chloe@acme.test');
    expect(link).toBe('http://localhost:3000/login?loginEmail=chloe%40acme.test&loginProvider=email');

    await mailer.send(
      inviteMail({
        to: 'chloe@acme.test',
        link,
        orgName: 'Acme',
        inviter: { name: 'Ada Admin', email: 'admin@acme.test' },
      }),
    );
    expect(lines).toHaveLength(1);
    const { msg } = JSON.parse(lines[0] ?? '{}') as { msg: string };
    expect(msg).toContain('chloe@acme.test');
    expect(msg).toContain(link);
  });
});
