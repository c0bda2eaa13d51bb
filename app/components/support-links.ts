// The Support menu's links (spec shell-and-account §2.8): Contact Us, Visit Help Center, Join Slack Community, and
// 'Earn $500' only with the earn500 flag; each only where the build names its address (app/config.ts).
import { shell } from '../../common/strings';
import type { SupportLinks } from '../config';

export type SupportLink = { label: string; href: string; testId: string };

export function supportLinks(links: SupportLinks, earn500: boolean): SupportLink[] {
  const listed: SupportLink[] = [
    { label: shell.CONTACT_US, href: links.contactUs, testId: 'support-contact' },
    { label: shell.VISIT_HELP_CENTER, href: links.helpCenter, testId: 'support-help' },
    { label: shell.JOIN_SLACK_COMMUNITY, href: links.slackCommunity, testId: 'support-slack' },
    ...(earn500 ? [{ label: shell.EARN_500, href: links.earn500, testId: 'support-earn' }] : []),
  ];
  return listed.filter((link) => link.href !== '');
}
