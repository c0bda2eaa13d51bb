import { inboxCopy, PRODUCT_NAME } from '../../common/strings';
import type { MailMessage } from './mailer';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The sign-in code mail (spec §4.1 step 4, §4.2). The link opens the login page at the code stage with the code
 * filled in (spec §4.1 step 6), so one click signs in; the code is also in the subject for typing it elsewhere.
 */
export function loginCodeMail(options: {
  to: string;
  code: string;
  publicUrl: string;
  purpose: 'LOGIN' | 'SIGNUP';
}): MailMessage {
  const { to, code, publicUrl, purpose } = options;
  const link = new URL('/login', publicUrl);
  link.search = new URLSearchParams({
    loginCode: code,
    loginEmail: to,
    loginProvider: 'email',
    loginStage: '1',
  }).toString();
  const greeting =
    purpose === 'SIGNUP' ? `Welcome to ${PRODUCT_NAME}!` : `Here is your ${PRODUCT_NAME} login code.`;
  const text = [
    greeting,
    '',
    `Your temporary login code is: ${code}`,
    '',
    `Or sign in with this link: ${link.href}`,
    '',
    'The code works once, for 15 minutes. If you did not ask for it, you can ignore this email.',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>Your temporary login code is: <strong style="font-family:monospace">${escapeHtml(code)}</strong></p>`,
    `<p><a href="${escapeHtml(link.href)}">Sign in to ${PRODUCT_NAME}</a></p>`,
    '<p>The code works once, for 15 minutes. If you did not ask for it, you can ignore this email.</p>',
  ].join('\n');
  return {
    to,
    subject: `Your ${PRODUCT_NAME} login code: ${code}`,
    text,
    html,
    logLine: `login code for ${to}: ${code} (${link.href})`,
  };
}

/**
 * A notification sent by email because its recipient turned email on for its kind (spec shell-and-account §3
 * Notification preferences). `line` is the item's plain sentence; the link opens the topic.
 */
export function notificationMail(options: {
  to: string;
  line: string;
  topicUrl: string;
  settingsUrl: string;
  excerpt: string | null;
}): MailMessage {
  const { to, line, topicUrl, settingsUrl, excerpt } = options;
  const text = [
    line,
    ...(excerpt ? ['', excerpt] : []),
    '',
    `${inboxCopy.OPEN_TOPIC}: ${topicUrl}`,
    '',
    inboxCopy.emailFooter(settingsUrl),
  ].join('\n');
  return { to, subject: `${PRODUCT_NAME}: ${line}`, text, logLine: `notification for ${to}: ${line}` };
}
