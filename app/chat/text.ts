// Small text rules of the conversation view.
import {
  COUNT_MILLION_ABOVE,
  COUNT_THOUSAND_ABOVE,
  PLACEHOLDER_TYPING_START_MS,
  PLACEHOLDER_TYPING_STEP_MS,
} from '../../common/limits';

/** Cuts a title to `max` characters with an ellipsis (spec: references 20, sidebar topics 30). */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
}

/** Spec §5: Enter sends; with Ctrl, Meta, Shift or Alt, or while composing text (IME), it does not. */
export function sendsOnEnter(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
  keyCode?: number;
}): boolean {
  if (event.key !== 'Enter') return false;
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return false;
  // Some browsers report composition only through keyCode 229.
  return !event.isComposing && event.keyCode !== 229;
}

/** Empty or whitespace-only questions are not sent. */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * The question box's placeholder types out word by word (spec §9): the first word after 90 ms, each next one 10 ms
 * sooner than the one before, never faster than 10 ms.
 */
export function placeholderWordDelay(index: number): number {
  return Math.max(
    PLACEHOLDER_TYPING_STEP_MS,
    PLACEHOLDER_TYPING_START_MS - PLACEHOLDER_TYPING_STEP_MS * index,
  );
}

/** The placeholder after `words` words have been typed. */
export function typedPlaceholder(full: string, words: number): string {
  return full.split(' ').slice(0, words).join(' ');
}

/** Spec shell-and-account §9: counts read 'k' above 999 and 'm' above a million, one decimal where it says something. */
export function abbreviateCount(count: number): string {
  const scaled = (value: number, unit: string) => `${Number(value.toFixed(value < 10 ? 1 : 0))}${unit}`;
  if (count > COUNT_MILLION_ABOVE) return scaled(count / 1_000_000, 'm');
  if (count > COUNT_THOUSAND_ABOVE) return scaled(count / 1000, 'k');
  return String(count);
}
