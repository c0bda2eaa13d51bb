// Feature flags of spec shell-and-account §6 and asking-questions §6. Every flag defaults off, so a missing
// or unreachable flag source leaves Scout in its plain, fully working shape.
import { z } from 'zod';

const off = () => z.boolean().default(false);

export const flagsSchema = z
  .object({
    /** Offer the 'public' topic access level (also needs the org's publicTopicsEnabled). */
    publicTopics: off(),
    /** Shared topics: tagging colleagues, 'Shared with me', share dialog members. */
    multiplayerEnabled: off(),
    /** The inbox (with multiplayerEnabled). */
    notifications: off(),
    /** Live updates of shared topics over the realtime channel. */
    realtimeMultiplayer: off(),
    /** The Research toggle (also needs the deep-research plan feature). */
    deepresearch: off(),
    /** /admin/analytics and its settings entry. */
    adminAnalytics: off(),
    /** The API keys settings entry and the 'Embed anywhere' onboarding row. */
    apiKeysEnabled: off(),
    /** The guided onboarding tour. */
    inAppTour: off(),
    /** Verified answers: /answers, the settings entry, answers as a source. */
    answers: off(),
    /** The round icon buttons on the homepage. */
    homepageConfiguration: off(),
    /** The simpler invite experience. */
    simplerInvite: off(),
    /** The 'Earn $500' link in the support menu. */
    earn500: off(),
    /** The 30-second banner about an ongoing outage. */
    outageBanner: off(),
    /** The first-run setup dialog. */
    userSetup: off(),
    /** The custom chatbot script on wide screens. */
    customChatbot: off(),
    /** Skip the workspace-setup redirect and mark the onboarding workflow done. */
    workspaceSetupDisabled: off(),
    /** The 'Specify sources' button for confluence, gdrive, notion and slack. */
    appSpecificFiltersEnabled: off(),
    hideRelatedSearches: off(),
    /** The help bubble that opens the support widget. */
    homepageSupportEnabled: off(),
    /** Offer the demo-scheduling link ('Find a time', 'Book a demo'). */
    scheduleDemoLink: off(),
    /** Disable the AI Only scope tab. */
    aiOnlyDisabled: off(),
    /** The 'Reconnect Apps for accurate answers' homepage card. */
    reconnectAppsCard: off(),
    /** Reconnect a dropped answer stream (inactivity time-outs, RECONNECT, pending-message recovery). */
    chatReconnect: off(),
    /** Answers' debug logs (the DEBUG_LOGS message, a message's debugLogs), for admins only. */
    debugLogs: off(),
    /** How many file types a filter may list before a notice is shown. */
    fileTypeFilterNoticeThreshold: z.number().int().nonnegative().default(6),
  })
  // Unknown flags pass through, so per-model flags (modelDisabledFlag) and flags added later reach the app.
  .catchall(z.union([z.boolean(), z.number()]));

export type Flags = z.infer<typeof flagsSchema>;
/** A declared switch (not a threshold, not a per-model flag): what a route or a screen can be gated on. */
export type FlagName = Exclude<keyof typeof flagsSchema.shape, 'fileTypeFilterNoticeThreshold'>;

/**
 * The flags a workspace admin switches from the admin settings (`PATCH /orgs/flags`): features of the workspace.
 * The rest belong to the operator of the install (`scout flags`): announcements (outageBanner), promotion (earn500,
 * scheduleDemoLink), the setup path, analytics wiring, and publicTopics, the install-wide gate under which an admin
 * may then allow public links with the org's own publicTopicsEnabled setting (spec §4.6). The per-model switches
 * are both's: the operator's `scout flags`, and an Enterprise admin's `POST /ai_controls/models` (custom LLM
 * selection), which writes the same disableModel flag.
 */
export const ADMIN_FLAGS = [
  'multiplayerEnabled',
  'notifications',
  'realtimeMultiplayer',
  'answers',
  'deepresearch',
  'apiKeysEnabled',
  'inAppTour',
  'hideRelatedSearches',
  'aiOnlyDisabled',
  'chatReconnect',
  'reconnectAppsCard',
  'homepageConfiguration',
  'appSpecificFiltersEnabled',
  'debugLogs',
] as const satisfies readonly FlagName[];
export type AdminFlag = (typeof ADMIN_FLAGS)[number];

/** The 403 message of a route whose flag is off; the code FEATURE_DISABLED is what clients branch on. */
export function featureDisabledMessage(flag: FlagName): string {
  return `This feature is not enabled for this workspace (flag: ${flag}).`;
}
export type FlagsInput = z.input<typeof flagsSchema>;

export const DEFAULT_FLAGS: Flags = Object.freeze(flagsSchema.parse({}));

/** Read flags from any source; a malformed object falls back to the defaults rather than breaking the shell. */
export function parseFlags(input: unknown): Flags {
  const parsed = flagsSchema.safeParse(input ?? {});
  return parsed.success ? parsed.data : DEFAULT_FLAGS;
}

/** The per-model flag that turns one language model off for an organisation. */
export function modelDisabledFlag(modelId: string): string {
  return `disableModel:${modelId}`;
}

export function isModelDisabled(flags: Flags, modelId: string): boolean {
  return flags[modelDisabledFlag(modelId)] === true;
}

/** A flag this version declares, or the per-model flag of one of `modelIds`. */
export function isKnownFlag(name: string, modelIds: readonly string[]): boolean {
  return Object.hasOwn(flagsSchema.shape, name) || modelIds.some((id) => modelDisabledFlag(id) === name);
}

const SWITCH_WORDS: Record<string, boolean> = { on: true, true: true, off: false, false: false };

/**
 * Reads operator flag assignments (`multiplayerEnabled=on`, `fileTypeFilterNoticeThreshold=8`,
 * `disableModel:<id>=on`) into flag values, or answers the first problem. Only declared flags and per-model flags
 * of `modelIds` are accepted, so a misspelt name is refused rather than stored and ignored.
 */
export function parseFlagAssignments(
  assignments: readonly string[],
  modelIds: readonly string[],
): { flags: Record<string, boolean | number> } | { error: string } {
  const shape = flagsSchema.shape;
  const flags: Record<string, boolean | number> = {};
  for (const assignment of assignments) {
    const at = assignment.lastIndexOf('=');
    const name = at > 0 ? assignment.slice(0, at) : '';
    const value = assignment.slice(at + 1).toLowerCase();
    if (!name) return { error: `'${assignment}' is not name=value` };
    const numeric = name === 'fileTypeFilterNoticeThreshold';
    if (!isKnownFlag(name, modelIds)) return { error: `'${name}' is not a flag` };
    if (numeric) {
      const parsed = shape.fileTypeFilterNoticeThreshold.safeParse(Number(value));
      if (value === '' || !parsed.success) return { error: `${name} takes a whole number ≥ 0` };
      flags[name] = parsed.data;
    } else {
      if (!(value in SWITCH_WORDS)) return { error: `${name} takes on or off` };
      flags[name] = SWITCH_WORDS[value]!;
    }
  }
  return { flags };
}
