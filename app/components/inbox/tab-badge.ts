// The tab shows the unread count (spec §4.7): '(N) ' before the title, 9+ at most, and a favicon with a badge while
// N > 0. The icon is drawn as SVG, so the badged one needs no image file and no canvas.
import { shell } from '../../../common/strings';

const TITLE_PREFIX = /^\(\d+\+?\) /;
const ICON_ID = 'scout-favicon';

export function titleWithCount(title: string, unread: number): string {
  return `${shell.tabTitlePrefix(unread)}${title.replace(TITLE_PREFIX, '')}`;
}

/** Scout's mark; with a red dot in the corner when there is something unread. */
export function faviconHref(badged: boolean): string {
  const dot = badged ? '<circle cx="25" cy="7" r="7" fill="#fa5252" stroke="#fff" stroke-width="2"/>' : '';
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect x="1" y="3" width="28" height="28" rx="7" fill="#4c6ef5"/>' +
    '<text x="15" y="24" font-family="Arial,sans-serif" font-size="19" font-weight="700" fill="#fff" ' +
    `text-anchor="middle">S</text>${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export function showUnreadInTab(unread: number): void {
  const title = titleWithCount(document.title, unread);
  if (document.title !== title) document.title = title;
  let icon = document.getElementById(ICON_ID) as HTMLLinkElement | null;
  if (!icon) {
    icon = document.createElement('link');
    icon.id = ICON_ID;
    icon.rel = 'icon';
    icon.type = 'image/svg+xml';
    document.head.appendChild(icon);
  }
  const href = faviconHref(unread > 0);
  if (icon.getAttribute('href') !== href) icon.setAttribute('href', href);
  icon.dataset.unread = String(unread > 0);
}
