import { describe, expect, it } from 'vitest';
import type { Member } from '../../../common/api/members';
import { actionsFor } from './member-actions';

const member = (status: Member['status'], admin = false): Member => ({
  user_id: 'u1',
  name: null,
  email: 'x@acme.test',
  icon: null,
  status,
  admin,
});

describe('actionsFor', () => {
  it('offers the admin role, blocking and deleting for an active member', () => {
    expect(actionsFor(member('SIGNED_UP'), false)).toEqual(['make_admin', 'block', 'delete']);
  });

  it('offers unblocking for a blocked member and never the admin role', () => {
    expect(actionsFor(member('BLOCKED'), false)).toEqual(['unblock', 'delete']);
  });

  it('offers nothing that would lock an admin out of their own account', () => {
    expect(actionsFor(member('SIGNED_UP', true), true)).toEqual([]);
    expect(actionsFor(member('SIGNED_UP', true), false)).toEqual(['remove_admin', 'block', 'delete']);
  });

  it('offers nothing for a deleted member', () => {
    expect(actionsFor(member('DELETED'), false)).toEqual([]);
  });
});
