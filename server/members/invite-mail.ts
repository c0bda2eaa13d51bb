import { PRODUCT_NAME } from '../../common/strings';
import type { MailMessage } from '../email/mailer';

/** The sign-in address an invite leads to: the login screen with the email filled in and the email-code provider. */
export function inviteLink(publicUrl: string, email: string): string {
  const query = new URLSearchParams({ loginEmail: email, loginProvider: 'email' });
  return `${publicUrl.replace(/\/+$/, '')}/login?${query.toString()}`;
}

/** The invite mail. Without SMTP its log line is all a person trying Scout locally needs: who, and the link. */
export function inviteMail(options: {
  to: string;
  link: string;
  orgName: string;
  inviter: { name: string; email: string };
}): MailMessage {
  const { to, link, orgName, inviter } = options;
  const workspace = orgName || PRODUCT_NAME;
  return {
    to,
    subject: `${inviter.name} invited you to ${workspace} on ${PRODUCT_NAME}`,
    text: [
      `${inviter.name} (${inviter.email}) invited you to join ${workspace} on ${PRODUCT_NAME}.`,
      '',
      `Sign in with ${to} here:`,
      link,
      '',
      `${PRODUCT_NAME} will send you a temporary login code to finish signing in.`,
    ].join('\n'),
    logLine: `invite for ${to} from ${inviter.email}: sign in at ${link}`,
  };
}
