import { RELATIVE_TIME_JUST_NOW_MS, RELATIVE_TIME_MONTH_DAYS } from '../../../common/limits';
import { inbox, inboxCopy } from '../../../common/strings';

const MINUTE_S = 60;
const HOUR_S = 60 * MINUTE_S;
const DAY_S = 24 * HOUR_S;

/**
 * How long ago, as the inbox says it (spec §9): 'just now' under 60 s, then minutes, hours, days, weeks, months of
 * 30 days, years. A time ahead of this clock (another machine's) is 'just now' too.
 */
export function relativeTime(then: Date | string, now: Date): string {
  const seconds = Math.floor((now.getTime() - new Date(then).getTime()) / 1000);
  if (!(seconds * 1000 >= RELATIVE_TIME_JUST_NOW_MS)) return inbox.JUST_NOW;
  if (seconds < HOUR_S) return inboxCopy.minutesAgo(Math.floor(seconds / MINUTE_S));
  if (seconds < DAY_S) return inboxCopy.hoursAgo(Math.floor(seconds / HOUR_S));
  const days = Math.floor(seconds / DAY_S);
  if (days < 7) return inboxCopy.daysAgo(days);
  if (days < RELATIVE_TIME_MONTH_DAYS) return inboxCopy.weeksAgo(Math.floor(days / 7));
  if (days < 365) return inboxCopy.monthsAgo(Math.floor(days / RELATIVE_TIME_MONTH_DAYS));
  return inboxCopy.yearsAgo(Math.floor(days / 365));
}
