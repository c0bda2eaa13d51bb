/**
 * The answer prompt (DESIGN §6, BUILDING_PROMPT): instructions, the org's custom instructions and disclaimer, a
 * bot's instructions, the asker's personal background, and the sources numbered [1]..[n] with their title, source and text, then the conversation
 * so far and the question. Only passages retrieved with the asker's principals ever reach this function.
 */
import type { ModelMessage } from 'ai';
import type { SearchScope } from '../../common/api/chat';
import { PRODUCT_NAME } from '../../common/strings';
import type { AnswerModel } from '../llm/registry';
import { estimateTokens } from '../search';
import { stripCitations } from './citations';
import type { Passage } from './passages';

export type HistoryTurn = { sender: 'USER' | 'ASSISTANT'; text: string };

export type PromptInput = {
  question: string;
  scope: SearchScope;
  passages: readonly Passage[];
  orgName: string;
  orgInstructions: string | null;
  disclaimer: string | null;
  /** The asker's own personal background (/my-ai-controls): never another member's. */
  personalBackground: string | null;
  botName: string | null;
  botInstructions: string | null;
  history: readonly HistoryTurn[];
  now: Date;
  /** Minutes to add to UTC for the asker's local time. */
  tzOffsetMinutes: number;
  deepresearch: boolean;
};

const HISTORY_TURN_MAX_CHARS = 2000;

/**
 * Input tokens of the models Scout asks for, by the provider's model name (what is actually requested, so an
 * override or an OpenAI-compatible server's own model is sized as what it is), as the providers publish them.
 */
const CONTEXT_TOKENS: Readonly<Record<string, number>> = {
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
  'gpt-4.1-nano': 1_047_576,
  'chatgpt-4o-latest': 128_000,
  'gpt-4o': 128_000,
  o1: 200_000,
  'o1-mini': 128_000,
  'o3-mini': 200_000,
  'gpt-4-turbo': 128_000,
  'claude-sonnet-4-5': 200_000,
  'claude-3-7-sonnet-latest': 200_000,
  'claude-opus-4-1': 200_000,
  'gemini-1.5-pro': 2_097_152,
  'gemini-2.0-flash': 1_048_576,
  'gemini-2.0-flash-thinking-exp': 32_000,
  'llama-3.3-70b-versatile': 131_072,
  'deepseek-reasoner': 64_000,
  'grok-beta': 131_072,
  'grok-2-1212': 131_072,
};
/** A model Scout cannot size (a local server's own choice): the window of a small local model. */
export const UNKNOWN_CONTEXT_TOKENS = 8192;
/** The share of the window the sources may fill: the rest is instructions, the conversation and the answer. */
const SOURCES_SHARE = 0.25;
/** Sources past this add cost and distraction more than facts, however large the window. */
export const MAX_SOURCE_TOKENS = 12_000;
/** With no model, the extractive answer picks sentences from the sources: as much as one careful reader would. */
export const EXTRACTIVE_SOURCE_TOKENS = 4000;

/** Estimated tokens (estimateTokens) of source text the model can be given for one answer. */
export function sourceTokenBudget(model: AnswerModel): number {
  if (model.kind === 'extractive') return EXTRACTIVE_SOURCE_TOKENS;
  const context = CONTEXT_TOKENS[model.providerModel] ?? UNKNOWN_CONTEXT_TOKENS;
  return Math.min(Math.floor(context * SOURCES_SHARE), MAX_SOURCE_TOKENS);
}

function localDate(now: Date, offsetMinutes: number): string {
  const local = new Date(now.getTime() + offsetMinutes * 60_000);
  return local.toISOString().slice(0, 10);
}

/** The passages, in order, that fit the budget together (estimated tokens of their text); the rest are left out. */
export function withinBudget(passages: readonly Passage[], budgetTokens: number): Passage[] {
  let left = budgetTokens;
  return passages.filter((passage) => {
    const cost = estimateTokens(passage.text);
    if (cost > left) return false;
    left -= cost;
    return true;
  });
}

export function formatSource(passage: Passage, index: number): string {
  const facts = [passage.source];
  if (passage.authorName || passage.authorEmail)
    facts.push(`by ${passage.authorName ?? passage.authorEmail}`);
  if (passage.modifiedTime) facts.push(`modified ${passage.modifiedTime.toISOString().slice(0, 10)}`);
  if (passage.url) facts.push(passage.url);
  return `[${index + 1}] ${passage.title || 'Untitled'} (${facts.join(', ')})\n${passage.text.trim()}`;
}

const NO_WEB_RESULTS = '(no sources were found for this question)';
/** Below the relevance floor (retrieval.ts) nothing is given: the answer must not read as if something were. */
export const NOT_COVERED_BY_SOURCES =
  '(none of the workplace sources the asker can read cover this question: say so plainly before anything else)';

export function buildSystemPrompt(input: PromptInput): string {
  const lines: string[] = [
    `You are ${input.botName ?? PRODUCT_NAME}, a workplace assistant for ${input.orgName || 'this organisation'}.`,
    `Today is ${localDate(input.now, input.tzOffsetMinutes)}. Write in Markdown.`,
  ];
  if (input.scope === 'AI_ONLY') {
    lines.push('Answer from your own knowledge. No workplace documents were searched for this question.');
  } else {
    lines.push(
      input.scope === 'WEB'
        ? 'Answer using the numbered web results below.'
        : 'Answer using the numbered sources below, which come from the workplace apps the asker can read.',
      'Cite the sources you use inline with their number in square brackets, like [1] or [2][3], right after the ' +
        'facts they support. Cite only sources you used, and never invent a source number.',
      'If the sources do not contain the answer, say so plainly, then help as far as you can.',
    );
  }
  if (input.deepresearch) {
    lines.push(
      'This is a research request: write a thorough, well-structured report with headings, drawing on as many ' +
        'of the sources as are relevant, and end with a short summary.',
    );
  }
  if (input.orgInstructions?.trim()) {
    lines.push('', 'Instructions from the organisation:', input.orgInstructions.trim());
  }
  if (input.botInstructions?.trim()) {
    lines.push('', `Instructions for ${input.botName ?? 'this assistant'}:`, input.botInstructions.trim());
  }
  if (input.personalBackground?.trim()) {
    lines.push(
      '',
      'About the asker, in their own words (use it to fit the answer to them; it is not a source):',
      input.personalBackground.trim(),
    );
  }
  if (input.disclaimer?.trim()) {
    lines.push(
      '',
      'The organisation shows this disclaimer with every answer; never contradict it:',
      input.disclaimer.trim(),
    );
  }
  if (input.scope !== 'AI_ONLY') {
    lines.push('', 'Sources:');
    if (input.passages.length === 0)
      lines.push(input.scope === 'WEB' ? NO_WEB_RESULTS : NOT_COVERED_BY_SOURCES);
    input.passages.forEach((passage, index) => lines.push('', formatSource(passage, index)));
  }
  return lines.join('\n');
}

export function buildMessages(input: PromptInput): ModelMessage[] {
  const messages: ModelMessage[] = input.history.map((turn) =>
    turn.sender === 'USER'
      ? { role: 'user' as const, content: turn.text.slice(0, HISTORY_TURN_MAX_CHARS) }
      : { role: 'assistant' as const, content: stripCitations(turn.text).slice(0, HISTORY_TURN_MAX_CHARS) },
  );
  messages.push({ role: 'user', content: input.question });
  return messages;
}
