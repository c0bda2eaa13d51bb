// Where each page of a Google Sites export lives on the live site. An export is a folder tree of HTML pages
// (with their images and attachments beside them), usually wrapped in folders of the exporter's own (Takeout/,
// the site's name). The home page sits at the site's root, so the deepest folder holding every page is the root,
// and a page's path below it, without its extension, is its path below the site's address: `about/team.html`
// and `about/team/index.html` are both `{url}/about/team`.
import { isSitePage } from '../../common/api/uploads';
import type { ArchiveFile } from '../sdk';

export interface SitePage {
  /** Its path in the archive, to read it by. */
  readonly archivePath: string;
  /** Its path below the site's address, '' for the home page: also its external id, as `/{key}`. */
  readonly key: string;
  readonly size: number;
}

/** Archivers on Windows write backslashes; '.' and '..' would climb out of the site. */
function segmentsOf(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function commonFolder(paths: readonly string[][]): number {
  const first = paths[0] ?? [];
  let depth = 0;
  // the last segment is the file's name, never a folder
  while (depth < first.length - 1 && paths.every((segments) => segments.length - 1 > depth)) {
    const folder = first[depth];
    if (!paths.every((segments) => segments[depth] === folder)) break;
    depth++;
  }
  return depth;
}

/** The archive's pages with their keys, in path order; of two files naming the same page, the first wins. */
export function sitePages(files: readonly ArchiveFile[]): SitePage[] {
  const pages = files
    .filter((file) => isSitePage(file.path))
    .map((file) => ({ file, segments: segmentsOf(file.path) }))
    .filter((page) => page.segments.length > 0)
    .sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
  const root = commonFolder(pages.map((page) => page.segments));
  const byKey = new Map<string, SitePage>();
  for (const { file, segments } of pages) {
    const below = segments.slice(root);
    const name = below.pop()!.replace(/\.html?$/i, '');
    if (name.toLowerCase() !== 'index') below.push(name);
    const key = below.join('/');
    if (!byKey.has(key)) byKey.set(key, { archivePath: file.path, key, size: file.size });
  }
  return [...byKey.values()];
}

export function externalIdOf(key: string): string {
  return `/${key}`;
}

/** The page a page sits under: the nearest folder above it that is a page itself, if any. */
export function parentKeyOf(key: string, keys: ReadonlySet<string>): string | undefined {
  if (key === '') return undefined;
  const segments = key.split('/');
  while (segments.length > 0) {
    segments.pop();
    const candidate = segments.join('/');
    if (keys.has(candidate)) return candidate;
  }
  return undefined;
}

/** The site's address as given, without query or fragment, and without a trailing slash to join paths onto. */
export function siteBaseUrl(url: string): URL {
  const base = new URL(url);
  base.search = '';
  base.hash = '';
  base.pathname = base.pathname.replace(/\/+$/, '');
  return base;
}

export function pageUrl(base: URL, key: string): string {
  const url = new URL(base.href);
  const below = key.split('/').map(encodeURIComponent).join('/');
  if (key !== '') url.pathname = `${url.pathname.replace(/\/+$/, '')}/${below}`;
  return url.href;
}
