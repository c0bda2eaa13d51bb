/**
 * The kind of answer a question asks for, read from its wording alone (no model): a quantity (an amount of money, a
 * duration, a date, a count, a rate) or anything else. Policy pages state their rules as figures ("$80 per day",
 * "within 7 calendar days"), and a paraphrased question ("how much can I put on the company for meals?") often
 * shares no word with the line that answers it, though it plainly asks for a figure. Passage selection
 * (retrieval.ts) and the extractive answer (llm/extractive.ts) both prefer text that states what was asked.
 */

export const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|' +
  'eighteen|nineteen|twenty|thirty|forty|fifty|hundred|thousand|once|twice|half|daily|weekly|monthly|annually|yearly';
// "may" is left out: as a word of its own it is far more often the verb
const MONTHS_AND_DAYS =
  'january|february|march|april|june|july|august|september|october|november|december|monday|tuesday|' +
  'wednesday|thursday|friday|saturday|sunday';

/** One word that is a number. */
export const NUMBER = new RegExp(`^(?:\\d.*|${NUMBER_WORDS})$`, 'i');

/** A question asking for an amount, a duration, a date, a count, a limit or a rate. */
const ASKS_QUANTITY =
  /\b(?:how (?:many|much|long|soon|often|far|old|big|large|early|late|quickly)|when|until|deadline|by what|what (?:amount|percentage|percent|rate|length|date|day|days|time|size|age)|which (?:day|days|date|dates|month)|minimum|maximum|limit|ceiling|cap|budget|allowance|stipend|rate|timeline|cost|price|length|pay|paid|cover|reimburse|spend|per (?:day|night|week|month|year))\b/i;

export function asksForQuantity(question: string): boolean {
  return ASKS_QUANTITY.test(question);
}

/** A figure standing as a number of its own (or an ordinal): not part of a name such as "COVID-19" or "1Password". */
const FIGURE = `(?<![\\p{L}\\d][-.]?)(?:\\d[\\d,]*(?:\\.\\d+)?(?:st|nd|rd|th)?|${NUMBER_WORDS})(?![\\p{L}\\d])`;
/**
 * A sentence stating a figure of any kind: a number of its own (a count, "15 characters"), a month or a weekday.
 * Looser than STATES_QUANTITY: within one sentence a bare count is as likely to be the answer as a sum or a date.
 */
const MENTIONS_QUANTITY = new RegExp(`${FIGURE}|\\b(?:${MONTHS_AND_DAYS})\\b`, 'iu');

export function mentionsQuantity(sentence: string): boolean {
  return MENTIONS_QUANTITY.test(sentence);
}

const TIME_UNIT =
  '(?:business |calendar |working |full |consecutive )?(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|quarters?|years?)';
const CURRENCY = '(?:[$€£¥]\\s?\\d|\\d[\\d,]*(?:\\.\\d+)?\\s?(?:usd|eur|gbp|dollars?|euros?|pounds?)\\b)';
const PERIOD = '(?:per|each|every) (?:hour|day|night|week|month|quarter|year|person|employee|teammate)';
const DATE = `(?:\\b(?:${MONTHS_AND_DAYS}|may)\\b\\.? ?\\d{1,2}\\b|\\b\\d{1,2}(?:st|nd|rd|th)\\b|\\bend of the (?:day|week|month|quarter|year)\\b)`;

/**
 * A text stating a quantity: an amount of money, a figure with a unit of time or a percentage, a date, or a rate
 * ("per night"). Stricter than MENTIONS_QUANTITY, so that version numbers and names with digits in them do not read
 * as answers: retrieval weighs whole chunks by it, where almost every chunk has some digit.
 */
export const STATES_QUANTITY = new RegExp(
  `${CURRENCY}|${FIGURE}[\\s-]*(?:${TIME_UNIT}|%|percent)(?![\\p{L}])|${DATE}|\\b${PERIOD}\\b|\\b(?:once|twice|daily|weekly|monthly|annually|yearly)\\b`,
  'iu',
);

export function statesQuantity(text: string): boolean {
  return STATES_QUANTITY.test(text);
}
