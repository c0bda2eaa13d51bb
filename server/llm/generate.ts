/**
 * Calls to a generative model through the AI SDK. Errors surface as thrown ModelCallErrors (the SDK reports stream
 * errors as parts rather than throwing), and an abort ends the stream quietly so the caller keeps the partial text.
 */
import { generateText, streamText, type ModelMessage } from 'ai';
import type { ResolvedModel } from './registry';

export class ModelCallError extends Error {
  override name = 'ModelCallError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export type ModelCall = {
  model: ResolvedModel;
  system: string;
  messages: ModelMessage[];
  signal?: AbortSignal;
  /** Upper bound on the answer's length. */
  maxOutputTokens?: number;
};

/** One retry covers a provider's transient 5xx; more would keep the asker waiting. */
const MAX_RETRIES = 1;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The answer's text as it is generated. Ends early, without error, when `signal` aborts. */
export async function* streamModelText(call: ModelCall): AsyncGenerator<string> {
  const result = streamText({
    model: call.model.model,
    system: call.system,
    messages: call.messages,
    abortSignal: call.signal,
    maxRetries: MAX_RETRIES,
    maxOutputTokens: call.maxOutputTokens,
    providerOptions: call.model.providerOptions,
    // Errors arrive as 'error' parts below; without this the SDK also logs them to the console.
    onError: () => {},
  });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      if (part.text) yield part.text;
    } else if (part.type === 'error') {
      if (call.signal?.aborted) return;
      throw new ModelCallError(describe(part.error), part.error);
    } else if (part.type === 'abort') {
      return;
    }
  }
}

/** A short, whole completion (related searches, titles, research plans). */
export async function completeModelText(call: ModelCall): Promise<string> {
  try {
    const result = await generateText({
      model: call.model.model,
      system: call.system,
      messages: call.messages,
      abortSignal: call.signal,
      maxRetries: MAX_RETRIES,
      maxOutputTokens: call.maxOutputTokens,
      providerOptions: call.model.providerOptions,
    });
    return result.text;
  } catch (error) {
    throw new ModelCallError(describe(error), error);
  }
}
