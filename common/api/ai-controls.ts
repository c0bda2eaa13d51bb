// AI controls (spec shell-and-account §7.3, §2.2 /admin/ai-controls and /my-ai-controls): the org's disclaimer
// and custom instructions, a member's personal background, and which models the workspace offers.
import { z } from 'zod';
import {
  CUSTOM_INSTRUCTIONS_MAX_CHARS,
  DISCLAIMER_MAX_CHARS,
  PERSONAL_BACKGROUND_MAX_CHARS,
} from '../limits';
import { MODEL_IDS } from '../models';
import { aiControlsValidation } from '../strings';

/** Spaces around a text are not part of it, and a blank text clears the setting (null). */
const clearableText = (max: number, name: string) =>
  z
    .string()
    .trim()
    .max(max, aiControlsValidation.tooLong(name, max))
    .transform((text) => (text === '' ? null : text));

/**
 * `GET /ai_controls` (every member: the disclaimer is shown under answers). The values in force: a setting the
 * org's plan does not include is null, as it is then in no prompt and under no answer.
 */
export const aiControlsSchema = z.object({
  disclaimer: z.string().nullable(),
  custom_instructions: z.string().nullable(),
});
export type AiControls = z.infer<typeof aiControlsSchema>;

/** `POST /ai_controls/disclaimer` (admins, ENTERPRISE); answers the AI controls as saved. */
export const disclaimerUpdateRequestSchema = z
  .object({ disclaimer: clearableText(DISCLAIMER_MAX_CHARS, 'Disclaimer') })
  .strict();
export type DisclaimerUpdateRequest = z.input<typeof disclaimerUpdateRequestSchema>;

/** `POST /ai_controls/custom_instructions` (admins, BUSINESS); answers the AI controls as saved. */
export const customInstructionsUpdateRequestSchema = z
  .object({ custom_instructions: clearableText(CUSTOM_INSTRUCTIONS_MAX_CHARS, 'Custom instructions') })
  .strict();
export type CustomInstructionsUpdateRequest = z.input<typeof customInstructionsUpdateRequestSchema>;

/**
 * `GET` and `POST /ai_controls/personal`: what a member tells the assistant about themselves (who they are, what
 * they work on, how they like answers). It goes into that member's prompts only. Not the appearance "background".
 */
export const personalAiControlsSchema = z.object({ personal_background: z.string().nullable() });
export type PersonalAiControls = z.infer<typeof personalAiControlsSchema>;
export const personalAiControlsUpdateRequestSchema = z
  .object({ personal_background: clearableText(PERSONAL_BACKGROUND_MAX_CHARS, 'Personal background') })
  .strict();
export type PersonalAiControlsUpdateRequest = z.input<typeof personalAiControlsUpdateRequestSchema>;

/**
 * `POST /ai_controls/models` (admins, ENTERPRISE custom LLM selection): turns one model on or off for the
 * workspace (its disableModel flag); answers the model list as `GET /llms` does.
 */
export const modelSwitchRequestSchema = z
  .object({ model_id: z.enum(MODEL_IDS as [string, ...string[]]), enabled: z.boolean() })
  .strict();
export type ModelSwitchRequest = z.infer<typeof modelSwitchRequestSchema>;
