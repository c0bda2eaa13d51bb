import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MEMBER_ACTIONS,
  inviteRequestSchema,
  inviteResponseSchema,
  memberActionRequestSchema,
  memberActionResponseSchema,
  membersQuerySchema,
  membersResponseSchema,
} from '../../../common/api/members';
import { applyMemberAction } from '../../members/actions';
import { inviteMembers, type InviteMode } from '../../members/invites';
import { listMembers } from '../../members/list';
import { viewerOf } from '../../policies/access';

const INVITE_ACTIONS: Record<'send_invite' | 'resend_invite', InviteMode> = {
  send_invite: 'send',
  resend_invite: 'resend',
};

/**
 * Members of the viewer's org (spec shell-and-account §7.4, asking-questions §7). Every member lists and invites;
 * the other actions are one admin route each. An action not listed here has no route, so it answers the spec's 404.
 */
export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/members',
    {
      config: { access: 'signedIn' },
      schema: { querystring: membersQuerySchema, response: { 200: membersResponseSchema } },
    },
    async (request) => listMembers(app.ctx.store.db, viewerOf(request), request.query),
  );

  for (const [action, mode] of Object.entries(INVITE_ACTIONS)) {
    app.post(
      `/members/action/${action}`,
      {
        config: { access: 'signedIn' },
        schema: { body: inviteRequestSchema, response: { 200: inviteResponseSchema } },
      },
      async (request) => inviteMembers(app.ctx, viewerOf(request), request.body.emails, mode, request.log),
    );
  }

  for (const action of MEMBER_ACTIONS) {
    app.post(
      `/members/action/${action}`,
      {
        config: { access: 'admin' },
        schema: { body: memberActionRequestSchema, response: { 200: memberActionResponseSchema } },
      },
      async (request) => ({
        members: await applyMemberAction(app.ctx.store.db, viewerOf(request), action, request.body.user_ids),
      }),
    );
  }
};
