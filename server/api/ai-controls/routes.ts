import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  aiControlsSchema,
  customInstructionsUpdateRequestSchema,
  disclaimerUpdateRequestSchema,
  modelSwitchRequestSchema,
  personalAiControlsSchema,
  personalAiControlsUpdateRequestSchema,
} from '../../../common/api/ai-controls';
import { llmListResponseSchema } from '../../../common/api/llms';
import { modelDisabledFlag } from '../../../common/flags';
import { Feature } from '../../../common/plans';
import { modelListFor } from '../../ai-controls/models';
import {
  aiControlsInForce,
  personalBackgroundOf,
  updateOrgAiControls,
  updatePersonalBackground,
} from '../../ai-controls/settings';
import { updateOrgFlags } from '../../orgs/settings';
import { viewerOf } from '../../policies/access';

/**
 * AI controls (spec shell-and-account §7.3): the org's disclaimer (ENTERPRISE) and custom instructions (BUSINESS,
 * "org-wide instructions"), set by admins and read by every member; a member's own personal background; and the
 * admin's per-model switches (ENTERPRISE, "custom LLM selection").
 */
export const aiControlRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ai_controls',
    { config: { access: 'signedIn' }, schema: { response: { 200: aiControlsSchema } } },
    async (request) => aiControlsInForce(app.ctx.store.db, viewerOf(request).orgId),
  );

  app.post(
    '/ai_controls/disclaimer',
    {
      config: { access: 'admin', feature: Feature.customDisclaimer },
      schema: { body: disclaimerUpdateRequestSchema, response: { 200: aiControlsSchema } },
    },
    async (request) => {
      const { orgId } = viewerOf(request);
      await updateOrgAiControls(app.ctx.store.db, orgId, { disclaimer: request.body.disclaimer });
      return aiControlsInForce(app.ctx.store.db, orgId);
    },
  );

  app.post(
    '/ai_controls/custom_instructions',
    {
      config: { access: 'admin', feature: Feature.orgWideInstructions },
      schema: { body: customInstructionsUpdateRequestSchema, response: { 200: aiControlsSchema } },
    },
    async (request) => {
      const { orgId } = viewerOf(request);
      await updateOrgAiControls(app.ctx.store.db, orgId, {
        customInstructions: request.body.custom_instructions,
      });
      return aiControlsInForce(app.ctx.store.db, orgId);
    },
  );

  app.get(
    '/ai_controls/personal',
    { config: { access: 'signedIn' }, schema: { response: { 200: personalAiControlsSchema } } },
    async (request) => ({
      personal_background: await personalBackgroundOf(app.ctx.store.db, viewerOf(request)),
    }),
  );

  app.post(
    '/ai_controls/personal',
    {
      config: { access: 'signedIn' },
      schema: { body: personalAiControlsUpdateRequestSchema, response: { 200: personalAiControlsSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      await updatePersonalBackground(app.ctx.store.db, viewer, request.body.personal_background);
      return { personal_background: await personalBackgroundOf(app.ctx.store.db, viewer) };
    },
  );

  app.post(
    '/ai_controls/models',
    {
      config: { access: 'admin', feature: Feature.customLlmSelection },
      schema: { body: modelSwitchRequestSchema, response: { 200: llmListResponseSchema } },
    },
    async (request) => {
      const { orgId } = viewerOf(request);
      const { model_id: modelId, enabled } = request.body;
      await updateOrgFlags(app.ctx.store.db, orgId, { flags: { [modelDisabledFlag(modelId)]: !enabled } });
      return modelListFor(app.ctx.store.db, orgId);
    },
  );
};
