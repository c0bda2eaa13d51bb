import { describe, expect, it } from 'vitest';
import { shell } from '../../common/strings';
import { supportLinks } from './support-links';

const every = {
  contactUs: 'mailto:help@scout.example',
  helpCenter: 'https://help.scout.example/',
  slackCommunity: 'https://slack.scout.example/',
  earn500: 'https://scout.example/referrals',
};

describe('supportLinks (spec §2.8)', () => {
  it('lists Contact Us, Help Center and Slack Community, and Earn $500 only with its flag', () => {
    expect(supportLinks(every, false).map((link) => link.label)).toEqual([
      shell.CONTACT_US,
      shell.VISIT_HELP_CENTER,
      shell.JOIN_SLACK_COMMUNITY,
    ]);
    expect(supportLinks(every, true).at(-1)).toEqual({
      label: shell.EARN_500,
      href: every.earn500,
      testId: 'support-earn',
    });
  });

  it('leaves out a link whose address the build does not name, flag or not', () => {
    const some = { ...every, helpCenter: '', earn500: '' };
    expect(supportLinks(some, true).map((link) => link.label)).toEqual([
      shell.CONTACT_US,
      shell.JOIN_SLACK_COMMUNITY,
    ]);
  });
});
