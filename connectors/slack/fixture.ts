// The fixture workspace the Slack tests share: who is who, which channels the app is in, and what was said.
import type { SlackFake } from './fake';

export const HOUR = 60 * 60;
export const DAY = 24 * HOUR;

export const ADMIN = 'UADA';
export const MEMBER = 'UGRACE';
export const GUEST = 'UGUS';
export const LEFT = 'ULEFT';
export const EXTERNAL = 'WEXT';

export interface Fixture {
  /** #general: public, the app is in it. */
  readonly general: string;
  /** #eng: private, the app is in it. */
  readonly eng: string;
  /** #random: public, the app is not in it. */
  readonly random: string;
  /** Top-level messages' ts by name. */
  readonly ts: Record<'hello' | 'question' | 'old' | 'spec' | 'design' | 'lunch' | 'outside', string>;
  readonly specFileId: string;
}

/**
 * Ada (admin), Grace (full member), Gus (a guest in #eng only), a deactivated user and a Slack Connect member from
 * another company. #general holds a message, a thread of two replies and a two-year-old message; #eng a message
 * with a shared file and one more; #random, which the app was never added to, a message nobody may index; and
 * #general a message older than the three-year window.
 */
export function seedWorkspace(fake: SlackFake): Fixture {
  fake.addUser({
    id: ADMIN,
    name: 'ada',
    real_name: 'Ada Lovelace',
    is_admin: true,
    profile: { email: 'Ada@Example.com', real_name: 'Ada Lovelace' },
  });
  fake.addUser({
    id: MEMBER,
    name: 'grace',
    profile: { email: 'grace@example.com', real_name: 'Grace Hopper' },
  });
  fake.addUser({
    id: GUEST,
    name: 'gus',
    is_restricted: true,
    profile: { email: 'gus@example.com', real_name: 'Gus Guest' },
  });
  fake.addUser({ id: LEFT, name: 'left', deleted: true, profile: { email: 'left@example.com' } });
  fake.addUser({ id: 'UBOT', name: 'scout', is_bot: true, profile: { real_name: 'Scout' } });
  fake.addExternalUser({
    id: EXTERNAL,
    name: 'erin',
    profile: { email: 'erin@partner.test', real_name: 'Erin' },
  });

  const general = 'C0GENERAL';
  const eng = 'G0ENG';
  const random = 'C0RANDOM';
  fake.addChannel({ id: general, name: 'general', is_channel: true, is_private: false, is_member: true }, [
    ADMIN,
    MEMBER,
    'UBOT',
  ]);
  fake.addChannel({ id: eng, name: 'eng', is_group: true, is_private: true, is_member: true }, [
    ADMIN,
    GUEST,
    LEFT,
    EXTERNAL,
    'UBOT',
  ]);
  fake.addChannel({ id: random, name: 'random', is_channel: true, is_private: false, is_member: false }, [
    MEMBER,
  ]);

  const outside = fake.post(general, {
    user: ADMIN,
    text: 'Kick-off of the old office',
    ageSeconds: 4 * 365 * DAY,
  });
  const old = fake.post(general, {
    user: MEMBER,
    text: 'Quarterly planning notes',
    ageSeconds: 2 * 365 * DAY,
  });
  const hello = fake.post(general, {
    user: ADMIN,
    text: 'Hello <@UGRACE>, the roadmap is ready',
    ageSeconds: 3 * HOUR,
  });
  const question = fake.post(general, {
    user: MEMBER,
    text: 'Where do we deploy the billing service?',
    ageSeconds: 2 * HOUR,
  });
  fake.reply(general, question.ts ?? '', { user: ADMIN, text: 'On the blue cluster', ageSeconds: HOUR });
  fake.reply(general, question.ts ?? '', { user: MEMBER, text: 'Thanks &amp; noted', ageSeconds: HOUR / 2 });
  const spec = fake.post(eng, {
    user: ADMIN,
    text: 'The storage spec',
    ageSeconds: 5 * HOUR,
    files: [
      {
        id: 'F0SPEC',
        name: 'storage-spec.pdf',
        title: 'Storage spec',
        filetype: 'pdf',
        pretty_type: 'PDF',
        permalink: 'https://acme.slack.com/files/UADA/F0SPEC/storage-spec.pdf',
        user: ADMIN,
        created: Math.floor(Date.now() / 1000) - 5 * HOUR,
      },
    ],
  });
  const design = fake.post(eng, {
    user: GUEST,
    text: 'Design review of the secret vault',
    ageSeconds: 4 * HOUR,
  });
  const lunch = fake.post(random, { user: MEMBER, text: 'Lunch anyone?', ageSeconds: HOUR });
  return {
    general,
    eng,
    random,
    ts: {
      hello: hello.ts ?? '',
      question: question.ts ?? '',
      old: old.ts ?? '',
      spec: spec.ts ?? '',
      design: design.ts ?? '',
      lunch: lunch.ts ?? '',
      outside: outside.ts ?? '',
    },
    specFileId: 'F0SPEC',
  };
}

/** The credentials the OAuth flow stores for the fake: the bot token and the installing admin. */
export function credentialsFor(fake: SlackFake) {
  return { access_token: fake.token, authed_user: { id: ADMIN } };
}
