// Desktop notifications (spec §4.7): shown after a random delay of up to 1 s, and a click opens the topic in a new
// tab. Only for items the server marked for desktop (the member's desktop preference, pushes not paused) and only
// once the browser allows them.
import type { NotificationItem } from '../../../common/api/notifications';
import { DESKTOP_NOTIFICATION_MAX_DELAY_MS } from '../../../common/limits';
import { PRODUCT_NAME } from '../../../common/strings';
import { itemPath, plainLine } from './items';

export function desktopNotificationsAllowed(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

export function showDesktopNotification(item: NotificationItem): void {
  if (!item.desktop || !desktopNotificationsAllowed()) return;
  setTimeout(() => {
    // the tag lets the browser show it once when several tabs announce the same item
    const shown = new Notification(PRODUCT_NAME, { body: plainLine(item), tag: item.id });
    shown.onclick = () => {
      window.open(itemPath(item), '_blank', 'noopener');
      shown.close();
    };
  }, Math.random() * DESKTOP_NOTIFICATION_MAX_DELAY_MS);
}
