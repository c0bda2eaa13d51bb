import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MEMBERS_QUERY_KEY, membersApi } from '../../api/members';
import { notifyFailure, notifySuccess } from '../toast';
import { inviteOutcome, inviteRequestOf } from './invite-list';
import type { CallResult, InviteEntry, InviteOutcome } from './invite-list';

async function call(
  entries: readonly InviteEntry[],
  send: typeof membersApi.sendInvite,
): Promise<CallResult> {
  if (entries.length === 0) return 'none';
  try {
    await send(inviteRequestOf(entries));
    return 'ok';
  } catch (error) {
    console.warn('invite call failed', error);
    return 'failed';
  }
}

/** Both calls run together (spec asking-questions §4); each is made only when its list is not empty (§7). */
export async function sendInvites(entries: readonly InviteEntry[]): Promise<InviteOutcome> {
  const [send, resend] = await Promise.all([
    call(
      entries.filter((entry) => entry.inviteType === 'new'),
      membersApi.sendInvite,
    ),
    call(
      entries.filter((entry) => entry.inviteType === 'resend'),
      membersApi.resendInvite,
    ),
  ]);
  return inviteOutcome(entries, send, resend);
}

/** Sends the invites, tells the person how it went, and refreshes every members list. Resolves to what stays. */
export function useSendInvites() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendInvites,
    onSuccess: (outcome) => {
      outcome.successes.forEach((message) => notifySuccess(message));
      outcome.failures.forEach((message) => notifyFailure(message));
      void queryClient.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY });
    },
  });
}
