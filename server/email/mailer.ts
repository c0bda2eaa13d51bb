import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * One line for the log when no SMTP server is configured, naming the recipient and what they need (the code, the
   * invite link), so a person trying Scout locally can sign in without a mail server.
   */
  logLine: string;
};

export type Mailer = { send(message: MailMessage): Promise<void>; readonly kind: 'smtp' | 'log' };

/** SMTP when `smtpUrl` is set (smtp://user:pass@host:port, smtps:// for TLS); otherwise one log line a message. */
export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
  const { smtpUrl, from, logger } = options;
  if (!smtpUrl) {
    return {
      kind: 'log',
      async send(message) {
        logger.info({ mailTo: message.to, subject: message.subject }, `[mail] ${message.logLine}`);
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      logger.info({ mailTo: message.to, subject: message.subject }, 'mail sent');
    },
  };
}
