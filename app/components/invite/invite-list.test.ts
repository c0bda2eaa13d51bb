import { describe, expect, it } from 'vitest';
import type { Member } from '../../../common/api/members';
import { invites, validation } from '../../../common/strings';
import {
  inviteEmailProblem,
  inviteOutcome,
  inviteRequestOf,
  inviteSuggestions,
  newEntry,
  resendEntry,
} from './invite-list';

const member = (email: string, status: Member['status'], name: string | null = null): Member => ({
  user_id: email,
  name,
  email,
  icon: null,
  status,
  admin: false,
});

describe('inviteEmailProblem (asking-questions §5)', () => {
  const domains = ['acme.test', 'acme.example'];

  it('accepts an address on an allowed domain or a subdomain of one', () => {
    expect(inviteEmailProblem('ann@acme.test', domains)).toBeNull();
    expect(inviteEmailProblem(' Ann@EU.Acme.Example ', domains)).toBeNull();
  });

  it("says 'Invalid email address' first", () => {
    expect(inviteEmailProblem('ann', domains)).toBe(validation.INVALID_EMAIL_ADDRESS);
    expect(inviteEmailProblem('ann@acme', domains)).toBe(validation.INVALID_EMAIL_ADDRESS);
  });

  it("then 'Domain not allowed', also for a look-alike domain", () => {
    expect(inviteEmailProblem('ann@other.test', domains)).toBe(validation.DOMAIN_NOT_ALLOWED);
    expect(inviteEmailProblem('ann@evilacme.test', domains)).toBe(validation.DOMAIN_NOT_ALLOWED);
  });
});

describe('inviteSuggestions (asking-questions §5)', () => {
  const members = [
    member('ivy@acme.test', 'INVITED'),
    member('ian@acme.test', 'CREATED', 'Ian Ives'),
    member('iris@acme.test', 'SIGNED_UP', 'Iris'),
    member('ike@acme.test', 'BLOCKED'),
    member('zed@acme.test', 'INVITED', 'Isaac Zed'),
  ];

  it('offers only members invited or created, matching the email or the name', () => {
    expect(inviteSuggestions(members, [], 'i').map((m) => m.email)).toEqual([
      'ivy@acme.test',
      'ian@acme.test',
      'zed@acme.test',
    ]);
    expect(inviteSuggestions(members, [], 'isaac').map((m) => m.email)).toEqual(['zed@acme.test']);
  });

  it('leaves out who is already picked, and offers nothing for blank text', () => {
    expect(inviteSuggestions(members, [newEntry('ivy@acme.test')], 'i').map((m) => m.email)).not.toContain(
      'ivy@acme.test',
    );
    expect(inviteSuggestions(members, [], '  ')).toEqual([]);
  });

  it('shows at most 5', () => {
    const many = Array.from({ length: 9 }, (_, i) => member(`p${i}@acme.test`, 'INVITED'));
    expect(inviteSuggestions(many, [], 'acme')).toHaveLength(5);
  });
});

describe('inviteOutcome (asking-questions §4, §8)', () => {
  const fresh = newEntry('new@acme.test');
  const again = resendEntry(member('ivy@acme.test', 'INVITED'));
  const both = [fresh, again];

  it('clears the list when every call made succeeds', () => {
    expect(inviteOutcome(both, 'ok', 'ok')).toEqual({
      kept: [],
      successes: [invites.INVITED, invites.RESENT],
      failures: [],
    });
    expect(inviteOutcome([fresh], 'ok', 'none')).toEqual({
      kept: [],
      successes: [invites.INVITED],
      failures: [],
    });
  });

  it('is one failure when both calls fail, keeping everything', () => {
    expect(inviteOutcome(both, 'failed', 'failed')).toEqual({
      kept: both,
      successes: [],
      failures: [invites.FAILED_TO_INVITE],
    });
  });

  it('keeps only the failed list on a partial failure', () => {
    expect(inviteOutcome(both, 'ok', 'failed')).toEqual({
      kept: [again],
      successes: [invites.INVITED],
      failures: [invites.FAILED_TO_RESEND],
    });
    expect(inviteOutcome(both, 'failed', 'ok')).toEqual({
      kept: [fresh],
      successes: [invites.RESENT],
      failures: [invites.FAILED_TO_SEND],
    });
    expect(inviteOutcome([fresh], 'failed', 'none').failures).toEqual([invites.FAILED_TO_SEND]);
  });

  it('sends each entry with its role', () => {
    expect(inviteRequestOf([{ ...fresh, admin: true }, again])).toEqual({
      emails: [
        { email: 'new@acme.test', make_admin: true },
        { email: 'ivy@acme.test', make_admin: false },
      ],
    });
  });
});
