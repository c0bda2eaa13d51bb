const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * The public topic page's timestamp in the spec's 'MMM D, h:mm a' (shell TOPIC_TIMESTAMP_FORMAT; Day.js tokens:
 * short month, day, 12-hour clock, lower-case am/pm), in the reader's time zone. An unreadable date gives ''.
 */
export function formatTopicTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${hour12}:${minutes} ${hours < 12 ? 'am' : 'pm'}`;
}
