import type { NotificationItem } from '../../../common/api/notifications';

/** Where an item leads (spec §2.9): the topic, at the message when there is one. */
export function itemPath(item: Pick<NotificationItem, 'data'>): string {
  const topic = `/topic/${encodeURIComponent(item.data.topic_id)}`;
  return item.data.message_id ? `${topic}/${encodeURIComponent(item.data.message_id)}` : topic;
}

/** The item's markdown line as plain text, for a desktop notification: bold marks and escapes removed. */
export function plainLine(item: Pick<NotificationItem, 'markdown'>): string {
  return item.markdown.replace(/\*\*/g, '').replace(/\\(.)/g, '$1');
}
