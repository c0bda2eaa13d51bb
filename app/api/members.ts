import {
  inviteResponseSchema,
  memberActionResponseSchema,
  membersResponseSchema,
} from '../../common/api/members';
import type {
  InviteRequest,
  InviteResponse,
  MemberAction,
  MemberActionResponse,
  MembersResponse,
  MemberStatus,
} from '../../common/api/members';
import { api } from './client';

/** Every cached members list starts with this key, so one invalidation refreshes them all. */
export const MEMBERS_QUERY_KEY = ['members'] as const;

export const membersApi = {
  list: (
    query: { q?: string; page: number; status?: MemberStatus },
    signal?: AbortSignal,
  ): Promise<MembersResponse> =>
    api.get('members', {
      query: { q: query.q || undefined, page: query.page, status: query.status },
      signal,
      schema: membersResponseSchema,
    }),

  sendInvite: (body: InviteRequest): Promise<InviteResponse> =>
    api.post('members/action/send_invite', { body, schema: inviteResponseSchema }),

  resendInvite: (body: InviteRequest): Promise<InviteResponse> =>
    api.post('members/action/resend_invite', { body, schema: inviteResponseSchema }),

  act: (action: MemberAction, userIds: string[]): Promise<MemberActionResponse> =>
    api.post(`members/action/${action}`, { body: { user_ids: userIds }, schema: memberActionResponseSchema }),
};
