/** The model's variables a benchmark's Scout server must not inherit: only the local test model may answer. */
const LLM_ENV = /^(OPENAI|ANTHROPIC|GOOGLE_GENERATIVE_AI|XAI|DEEPSEEK|LLAMA|LLM_MODEL|WEB_SEARCH)_/;

/** This process's environment without the developer's model keys, for a server the benchmark starts. */
export const envWithoutModels = (): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !LLM_ENV.test(key)));
