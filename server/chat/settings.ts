/**
 * What every stage of the answer pipeline is given (the store, the log, this process's live generations and the
 * timings), and how a question or a reconnect is refused before anything is written.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { type ChatErrorCode } from '../../common/api/chat';
import type { Store } from '../db/store';
import type { LlmEnvironment } from '../llm/config';
import type { Notifier } from '../notifications/notifier';
import type { RealtimeHub } from '../realtime/hub';
import { type GenerationRegistry } from './generations';

export type ChatSettings = {
  /** How often the streaming text is saved. */
  writeIntervalMs: number;
  /** A live answer's row is touched at least this often. */
  keepaliveMs: number;
  /** A PENDING answer not updated for this long belongs to a process that died. */
  staleAfterMs: number;
  /** RECONNECT to an answer written by another process polls its row this often. */
  followPollMs: number;
  /** A silent answer says its stage again after this long (below the client's 15 s inactivity time-out). */
  stageRepeatMs: number;
  /** How often this process looks for STOP_GENERATION requests other instances recorded for its answers. */
  stopPollMs: number;
  /** How long retrieval waits for the model's rewrite of a question before it goes on with the question alone. */
  rewriteTimeoutMs: number;
};

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  writeIntervalMs: 250,
  keepaliveMs: 5_000,
  staleAfterMs: 30_000,
  followPollMs: 500,
  stageRepeatMs: 5_000,
  stopPollMs: 500,
  rewriteTimeoutMs: 2_000,
};

const chatEnvSchema = z.object({
  /** Lower it behind a proxy that closes sockets idle for less than ~8 s. */
  CHAT_STAGE_REPEAT_MS: z.coerce.number().int().min(50).max(60_000).optional(),
  /** Raise it for a local model slower than the default to write a few keywords; every answer waits at most this. */
  CHAT_REWRITE_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).optional(),
});

/** The defaults, with the operator's CHAT_STAGE_REPEAT_MS and CHAT_REWRITE_TIMEOUT_MS; a bad value fails at start. */
export function loadChatSettings(env: NodeJS.ProcessEnv = process.env): ChatSettings {
  const parsed = chatEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid ${String(issue?.path[0])}: ${issue?.message}`);
  }
  return {
    ...DEFAULT_CHAT_SETTINGS,
    stageRepeatMs: parsed.data.CHAT_STAGE_REPEAT_MS ?? DEFAULT_CHAT_SETTINGS.stageRepeatMs,
    rewriteTimeoutMs: parsed.data.CHAT_REWRITE_TIMEOUT_MS ?? DEFAULT_CHAT_SETTINGS.rewriteTimeoutMs,
  };
}

export type ChatDeps = {
  store: Store;
  log: FastifyBaseLogger;
  registry: GenerationRegistry;
  settings: ChatSettings;
  /** The providers' settings, read for each question. */
  llmEnvironment: () => LlmEnvironment;
  /** Tells a shared topic's members of a new question, and the asker of finished research. */
  notifier: Notifier;
  /** Where others with the topic open see the question and its answer as it streams. */
  realtime: RealtimeHub;
};

/** A QUERY or RECONNECT refused before anything was written: the socket answers an ERROR and stays usable. */
export class ChatRefusal extends Error {
  override name = 'ChatRefusal';
  constructor(
    readonly code: ChatErrorCode,
    message: string,
  ) {
    super(message);
  }
}
