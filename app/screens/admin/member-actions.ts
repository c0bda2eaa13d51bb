import type { Member, MemberAction } from '../../../common/api/members';

/** The actions that make sense for a member; none that would lock the admin out of their own account. */
export function actionsFor(member: Member, self: boolean): MemberAction[] {
  const actions: MemberAction[] = [];
  const active = member.status !== 'BLOCKED' && member.status !== 'DELETED';
  if (active && !member.admin) actions.push('make_admin');
  if (member.admin && !self) actions.push('remove_admin');
  if (member.status === 'BLOCKED') actions.push('unblock');
  else if (member.status !== 'DELETED' && !self) actions.push('block');
  if (member.status !== 'DELETED' && !self) actions.push('delete');
  return actions;
}
