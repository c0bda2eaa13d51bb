import { describe, expect, it } from 'vitest';
import type { Member } from '../../common/api/members';
import {
  activeMention,
  mentionSuggestions,
  pickMention,
  sharedMessageBody,
  stillTagged,
  type TaggedMember,
} from './mentions';

const member = (name: string | null, email: string, status: Member['status'] = 'SIGNED_UP'): Member => ({
  user_id: `id-${email}`,
  name,
  email,
  icon: null,
  status,
  admin: false,
});

describe('activeMention', () => {
  it('finds the @word the caret is in, at the start or after white space', () => {
    expect(activeMention('@mi', 3)).toEqual({ start: 0, query: 'mi' });
    expect(activeMention('ask @', 5)).toEqual({ start: 4, query: '' });
    expect(activeMention('hi\n@Co', 6)).toEqual({ start: 3, query: 'Co' });
    expect(activeMention('ask @mia now', 8)).toEqual({ start: 4, query: 'mia' });
  });

  it('ignores addresses, finished words and a caret elsewhere', () => {
    expect(activeMention('mail bob@acme.test', 18)).toBeNull();
    expect(activeMention('ask @mia now', 12)).toBeNull();
    expect(activeMention('no mention', 10)).toBeNull();
  });
});

describe('mentionSuggestions', () => {
  const members = [
    member('Mia Wong', 'mia@acme.test'),
    member('Owen', 'owen@acme.test'),
    member(null, 'new@acme.test', 'INVITED'),
    member('Gone', 'gone@acme.test', 'DELETED'),
    member('Blocked', 'blocked@acme.test', 'BLOCKED'),
    ...['a', 'b', 'c', 'd', 'e', 'f'].map((letter) => member(`Team ${letter}`, `${letter}@acme.test`)),
  ];
  const none: TaggedMember[] = [];

  it('matches name or email, never the writer, the tagged, or blocked and deleted people', () => {
    expect(
      mentionSuggestions(members, 'mi', { selfEmail: 'owen@acme.test', tagged: none }).map((m) => m.email),
    ).toEqual(['mia@acme.test']);
    expect(mentionSuggestions(members, 'NEW@', { selfEmail: 'x', tagged: none }).map((m) => m.email)).toEqual(
      ['new@acme.test'],
    );
    expect(mentionSuggestions(members, 'owen', { selfEmail: 'owen@acme.test', tagged: none })).toEqual([]);
    expect(mentionSuggestions(members, 'gone', { selfEmail: 'x', tagged: none })).toEqual([]);
    expect(mentionSuggestions(members, 'blocked', { selfEmail: 'x', tagged: none })).toEqual([]);
    const mia: TaggedMember = { id: 'id-mia', name: 'Mia Wong', email: 'MIA@acme.test', avatar: null };
    expect(mentionSuggestions(members, 'mia', { selfEmail: 'x', tagged: [mia] })).toEqual([]);
  });

  it('suggests at most five', () => {
    expect(mentionSuggestions(members, 'team', { selfEmail: 'x', tagged: none })).toHaveLength(5);
    expect(mentionSuggestions(members, '', { selfEmail: 'x', tagged: none })).toHaveLength(5);
  });
});

describe('pickMention', () => {
  it('writes @Name in place of the typed query and tags the member', () => {
    const text = 'can @mi check this';
    const picked = pickMention(text, { start: 4, query: 'mi' }, member('Mia Wong', 'mia@acme.test'), []);
    expect(picked.text).toBe('can @Mia Wong check this');
    expect(picked.caret).toBe('can @Mia Wong '.length);
    expect(picked.tagged).toEqual([
      { id: 'id-mia@acme.test', name: 'Mia Wong', email: 'mia@acme.test', avatar: null },
    ]);
  });

  it('names someone without a name Invited User', () => {
    const picked = pickMention('@', { start: 0, query: '' }, member(null, 'new@acme.test', 'INVITED'), []);
    expect(picked.text).toBe('@Invited User ');
  });
});

describe('stillTagged and sharedMessageBody', () => {
  const mia: TaggedMember = { id: 'u1', name: 'Mia', email: 'mia@acme.test', avatar: null };
  const cora: TaggedMember = { id: 'u2', name: 'Cora', email: 'cora@acme.test', avatar: 'data:x' };

  it('untags people whose @Name was deleted', () => {
    expect(stillTagged('@Mia and @Co', [mia, cora])).toEqual([mia]);
  });

  it('makes the POST /messages/create body', () => {
    expect(
      sharedMessageBody({
        text: '  @Mia @Cora look  ',
        conversationId: 'c-1',
        sender: { id: 'u0', email: 'owen@acme.test', name: 'Owen', avatar: null },
        tagged: [mia, cora],
      }),
    ).toEqual({
      message: '@Mia @Cora look',
      conversation_id: 'c-1',
      sender: { id: 'u0', email: 'owen@acme.test', name: 'Owen', avatar: null },
      tagged_users: [
        { id: 'u1', name: 'Mia', email: 'mia@acme.test', avatar: null },
        { id: 'u2', name: 'Cora', email: 'cora@acme.test', avatar: 'data:x' },
      ],
      tagged_emails: [],
    });
  });
});
