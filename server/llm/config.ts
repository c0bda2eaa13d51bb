import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();
const optionalUrl = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .pipe(z.url().optional())
  .optional();

/**
 * The model providers' settings, read from the environment (DESIGN §6). Read at each question rather than once at
 * start, so an operator's change takes effect on the next question and tests can point Scout at a local server.
 */
const llmEnvSchema = z.object({
  OPENAI_API_KEY: optionalText,
  /** For a proxy in front of OpenAI; the default is OpenAI's own API. */
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalText,
  GOOGLE_GENERATIVE_AI_API_KEY: optionalText,
  XAI_API_KEY: optionalText,
  DEEPSEEK_API_KEY: optionalText,
  /** Llama 70B through a Groq- or Together-style OpenAI-compatible API. */
  LLAMA_API_KEY: optionalText,
  LLAMA_BASE_URL: optionalUrl,
  LLAMA_MODEL: optionalText,
  /** Any OpenAI-compatible server (Ollama, vLLM, LiteLLM): every model without its own key is sent there. */
  OPENAI_COMPATIBLE_BASE_URL: optionalUrl,
  OPENAI_COMPATIBLE_API_KEY: optionalText,
  /** The one model the compatible server runs; absent, each Scout model asks for its provider's model name. */
  OPENAI_COMPATIBLE_MODEL: optionalText,
  /** JSON object overriding provider model names, e.g. {"anthropic-claude-opus":"claude-opus-4-1"}. */
  LLM_MODEL_OVERRIDES: optionalText,
  /** Web mode's search API (Brave Search style); without a key Web mode is refused with a clear message. */
  WEB_SEARCH_API_KEY: optionalText,
  WEB_SEARCH_BASE_URL: optionalUrl,
});

export const GROQ_BASE_URL = 'https://api.groq.com/openai/v1';
export const DEFAULT_LLAMA_MODEL = 'llama-3.3-70b-versatile';
export const BRAVE_SEARCH_BASE_URL = 'https://api.search.brave.com';

export type LlmEnvironment = {
  openai: { apiKey: string; baseURL: string | undefined } | null;
  anthropic: { apiKey: string } | null;
  google: { apiKey: string } | null;
  xai: { apiKey: string } | null;
  deepseek: { apiKey: string } | null;
  llama: { apiKey: string; baseURL: string; model: string } | null;
  compatible: { baseURL: string; apiKey: string | undefined; model: string | undefined } | null;
  modelOverrides: Readonly<Record<string, string>>;
  webSearch: { apiKey: string; baseURL: string } | null;
};

function parseOverrides(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('LLM_MODEL_OVERRIDES must be a JSON object of model id to provider model name');
  }
  const result = z.record(z.string(), z.string().min(1)).safeParse(parsed);
  if (!result.success)
    throw new Error('LLM_MODEL_OVERRIDES must be a JSON object of model id to provider model name');
  return result.data;
}

/** Throws on a malformed value (a URL that is not one), so a typo fails the question loudly, not silently. */
export function loadLlmEnvironment(env: NodeJS.ProcessEnv = process.env): LlmEnvironment {
  const parsed = llmEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid model settings: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    openai: e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY, baseURL: e.OPENAI_BASE_URL } : null,
    anthropic: e.ANTHROPIC_API_KEY ? { apiKey: e.ANTHROPIC_API_KEY } : null,
    google: e.GOOGLE_GENERATIVE_AI_API_KEY ? { apiKey: e.GOOGLE_GENERATIVE_AI_API_KEY } : null,
    xai: e.XAI_API_KEY ? { apiKey: e.XAI_API_KEY } : null,
    deepseek: e.DEEPSEEK_API_KEY ? { apiKey: e.DEEPSEEK_API_KEY } : null,
    llama: e.LLAMA_API_KEY
      ? {
          apiKey: e.LLAMA_API_KEY,
          baseURL: e.LLAMA_BASE_URL ?? GROQ_BASE_URL,
          model: e.LLAMA_MODEL ?? DEFAULT_LLAMA_MODEL,
        }
      : null,
    compatible: e.OPENAI_COMPATIBLE_BASE_URL
      ? {
          baseURL: e.OPENAI_COMPATIBLE_BASE_URL,
          apiKey: e.OPENAI_COMPATIBLE_API_KEY,
          model: e.OPENAI_COMPATIBLE_MODEL,
        }
      : null,
    modelOverrides: parseOverrides(e.LLM_MODEL_OVERRIDES),
    webSearch: e.WEB_SEARCH_API_KEY
      ? { apiKey: e.WEB_SEARCH_API_KEY, baseURL: e.WEB_SEARCH_BASE_URL ?? BRAVE_SEARCH_BASE_URL }
      : null,
  };
}
