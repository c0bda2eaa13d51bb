import { describe, expect, it } from 'vitest';
import type { Member } from '../../common/api/members';
import { topicUpdateRequestSchema } from '../../common/api/topics';
import { accessChangeOf, accessLevelOf, memberSuggestions, offeredAccessLevels, topicLink } from './share';

const member = (email: string, name: string | null, status: Member['status'] = 'SIGNED_UP'): Member => ({
  user_id: email,
  name,
  email,
  icon: null,
  status,
  admin: false,
});

describe('topic access levels', () => {
  it('reads the level from topicAccess, public first', () => {
    expect(accessLevelOf({ isMultiplayer: false, isOrgWide: false, isPublic: false })).toBe('INVITE_ONLY');
    expect(accessLevelOf({ isMultiplayer: true, isOrgWide: true, isPublic: false })).toBe('ORG');
    expect(accessLevelOf({ isMultiplayer: false, isOrgWide: true, isPublic: true })).toBe('PUBLIC');
  });

  it('sends the body the server accepts for each level', () => {
    expect(accessChangeOf('PUBLIC')).toEqual({ is_public: true });
    expect(accessChangeOf('ORG')).toEqual({ visibility: 'ORG' });
    expect(accessChangeOf('INVITE_ONLY')).toEqual({ visibility: 'PRIVATE' });
    for (const level of ['PUBLIC', 'ORG', 'INVITE_ONLY'] as const) {
      expect(topicUpdateRequestSchema.safeParse(accessChangeOf(level)).success).toBe(true);
    }
  });

  it('offers public only when allowed', () => {
    expect(offeredAccessLevels(false)).toEqual(['INVITE_ONLY', 'ORG']);
    expect(offeredAccessLevels(true)).toEqual(['INVITE_ONLY', 'ORG', 'PUBLIC']);
  });
});

describe('member suggestions', () => {
  const found = [
    member('bob@a.test', 'Bob Builder'),
    member('bobby@a.test', null),
    member('blocked@a.test', 'Bob Blocked', 'BLOCKED'),
    member('gone@a.test', 'Bob Gone', 'DELETED'),
    member('carol@a.test', 'Carol Bobson'),
    member('dave@a.test', 'Dave'),
  ];

  it('matches by email or name, leaves out members and people the server would refuse', () => {
    const shown = memberSuggestions(found, ' BOB ', [{ email: 'Bobby@a.test' }]);
    expect(shown.map((entry) => entry.email)).toEqual(['bob@a.test', 'carol@a.test']);
  });

  it('offers nothing before text is typed, and at most five', () => {
    expect(memberSuggestions(found, '  ', [])).toEqual([]);
    const many = Array.from({ length: 9 }, (_, index) => member(`p${index}@a.test`, 'Pat'));
    expect(memberSuggestions(many, 'pat', [])).toHaveLength(5);
  });
});

it('links to the topic page', () => {
  expect(topicLink('https://scout.test', 'abc-1')).toBe('https://scout.test/topic/abc-1');
});
