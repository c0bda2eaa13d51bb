// The tab shows the unread count (spec §4.7): '(N) ' before the title, 9+ at most, and the favicon with a badge while
// N > 0. The badged icon is the favicon's own SVG with a dot drawn on it, so the mark has one source.
import { shell } from '../../../common/strings';

const TITLE_PREFIX = /^\(\d+\+?\) /;
const FAVICON_FALLBACK = '/favicon.svg';

export function titleWithCount(title: string, unread: number): string {
  return `${shell.tabTitlePrefix(unread)}${title.replace(TITLE_PREFIX, '')}`;
}

/** The SVG with a red dot in its top right corner, sized from its viewBox. */
export function withBadge(svg: string): string {
  const [, , width = 64, height = 64] = (/viewBox="([^"]+)"/.exec(svg)?.[1] ?? '0 0 64 64')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const r = Math.min(width, height) * 0.22;
  const dot =
    `<circle cx="${width - r}" cy="${r}" r="${r}" fill="#fa5252" stroke="#fff" ` +
    `stroke-width="${r / 4}"/>`;
  const end = svg.lastIndexOf('</svg>');
  return end < 0 ? svg : `${svg.slice(0, end)}${dot}${svg.slice(end)}`;
}

let badgedIcon: { base: string; href: Promise<string> } | null = null;

function badgedHref(base: string): Promise<string> {
  if (badgedIcon?.base !== base) {
    const href = fetch(base)
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(`${response.status}`))))
      .then((svg) => `data:image/svg+xml,${encodeURIComponent(withBadge(svg))}`);
    badgedIcon = { base, href };
  }
  return badgedIcon.href;
}

function faviconLink(): HTMLLinkElement {
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!icon) {
    icon = document.createElement('link');
    icon.rel = 'icon';
    icon.href = FAVICON_FALLBACK;
    document.head.appendChild(icon);
  }
  // the page's own icon, kept to put back once everything is read
  icon.dataset.base ??= icon.getAttribute('href') ?? FAVICON_FALLBACK;
  return icon;
}

let wanted = 0;

export function showUnreadInTab(unread: number): void {
  wanted = unread;
  const title = titleWithCount(document.title, unread);
  if (document.title !== title) document.title = title;
  const icon = faviconLink();
  const base = icon.dataset.base ?? FAVICON_FALLBACK;
  const apply = (href: string, badged: boolean) => {
    if (icon.getAttribute('href') !== href) icon.setAttribute('href', href);
    icon.dataset.unread = String(badged);
  };
  if (unread === 0) {
    apply(base, false);
    return;
  }
  badgedHref(base)
    .then((href) => {
      // the count may have gone back to zero while the icon was being drawn
      if (wanted > 0) apply(href, true);
    })
    .catch((error: unknown) => console.warn('the badged favicon could not be drawn', error));
}
