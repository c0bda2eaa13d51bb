// HTML to indexable text, shared by the website crawler and HTML uploads. The text keeps the structure the
// chunker needs: headings on their own lines as Markdown ATX headings ('# ', '## '), one line per list item and
// per table row (cells tab-separated), blank lines between blocks. Boilerplate (scripts, navigation, footers) is
// dropped, and when the page marks its content with <main> or <article> only that content is kept.
//
// Nothing is executed or fetched: the page is only tokenised (htmlparser2). Every walk is iterative, and the
// parse stops at a nesting depth of 512 (where browsers stop nesting too): htmlparser2 keeps open elements in an
// array it shifts on every tag, so a page nested a million deep would otherwise cost time squared in its depth.
import { DomHandler, DomUtils, ElementType, Parser } from 'htmlparser2';

export interface HtmlHeading {
  /** 1 for <h1> … 6 for <h6>. */
  level: number;
  text: string;
  /** Where the heading's text starts in `text` (after its '#' marker). */
  offset: number;
}

export interface HtmlDocument {
  /** <title>, else og:title, else the first <h1>; '' when the page names itself nowhere. */
  title: string;
  text: string;
  headings: HtmlHeading[];
  /** Absolute http(s) links, fragments stripped, in page order, without duplicates or rel="nofollow" links. */
  links: string[];
  canonicalUrl?: string;
  metaRobots: { noindex: boolean; nofollow: boolean };
  lang?: string;
}

export interface HtmlToDocumentOptions {
  /** The page's own address: relative links and the canonical URL resolve against it (and any <base href>). */
  baseUrl?: string;
}

type DomDocument = DomHandler['root'];
type DomNode = DomDocument['children'][number];
type DomElement = Extract<DomNode, { attribs: unknown }>;
type DomText = Extract<DomNode, { type: typeof ElementType.Text }>;
type DomParent = Extract<DomNode, { children: unknown }>;

const isElement = (node: DomNode | DomDocument): node is DomElement => ElementType.isTag(node);
const isText = (node: DomNode | DomDocument): node is DomText => node.type === ElementType.Text;
const hasChildren = (node: DomNode | DomDocument): node is DomParent | DomDocument => 'children' in node;

/** Never rendered: code, styling, media, form controls and embedded documents. */
const SKIPPED = new Set([
  'head',
  'title',
  'meta',
  'link',
  'base',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'canvas',
  'audio',
  'video',
  'picture',
  'img',
  'map',
  'select',
  'option',
  'optgroup',
  'datalist',
  'button',
  'input',
  'textarea',
  'dialog',
]);

/** Site chrome: dropped unless it sits inside the page's main content (an article's own header stays). */
const CHROME = new Set(['header', 'footer', 'aside']);
const CHROME_ROLES = new Set(['banner', 'contentinfo', 'complementary']);

/** Elements that start and end a line of their own. */
const BLOCKS = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'ol',
  'p',
  'section',
  'summary',
  'ul',
  'aside',
]);

/** Blocks followed by a blank line rather than a single line break. */
const PARAGRAPHS = new Set(['p', 'blockquote', 'figure', 'section', 'article', 'main', 'details', 'address']);

const HEADING_LEVELS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

export function htmlToDocument(html: string, options: HtmlToDocumentOptions = {}): HtmlDocument {
  const dom = parseHtml(html);
  const page = scanPage(dom, options.baseUrl);
  const writer = new TextWriter();
  for (const root of page.contentRoots) renderContent(root, writer, page.rootsAreContent);
  const { text, headings } = writer.finish();
  const firstH1 = headings.find((heading) => heading.level === 1)?.text;
  return {
    title: page.title || page.ogTitle || firstH1 || '',
    text,
    headings,
    links: page.links,
    ...(page.canonicalUrl ? { canonicalUrl: page.canonicalUrl } : {}),
    metaRobots: page.metaRobots,
    ...(page.lang ? { lang: page.lang } : {}),
  };
}

/** Elements open at once beyond which the rest of the page is not read (Blink's parser nests no deeper). */
const MAX_DEPTH = 512;
/** Characters fed to the parser between depth checks: at most a few thousand tags deeper than the limit. */
const PARSE_SLICE = 4096;

class DepthCountingHandler extends DomHandler {
  depth = 0;

  override onopentag(name: string, attribs: Record<string, string>): void {
    this.depth++;
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    this.depth--;
    super.onclosetag();
  }
}

function parseHtml(html: string): DomDocument {
  const handler = new DepthCountingHandler();
  const parser = new Parser(handler, { decodeEntities: true });
  for (let at = 0; at < html.length && handler.depth <= MAX_DEPTH; at += PARSE_SLICE) {
    parser.write(html.slice(at, at + PARSE_SLICE));
  }
  parser.end();
  return handler.root;
}

// ── One pass over the whole page: metadata, links, and where the content is ──────────────────────────────────

interface PageScan {
  title: string;
  ogTitle: string;
  links: string[];
  canonicalUrl?: string;
  metaRobots: { noindex: boolean; nofollow: boolean };
  lang?: string;
  contentRoots: DomNode[];
  /** True when the roots are <main>/<article>, so header/footer/aside inside them are content. */
  rootsAreContent: boolean;
}

function scanPage(dom: DomDocument, baseUrl: string | undefined): PageScan {
  let title: string | undefined;
  let ogTitle = '';
  let lang: string | undefined;
  let baseHref: string | undefined;
  let canonicalHref: string | undefined;
  const metaRobots = { noindex: false, nofollow: false };
  const hrefs: string[] = [];
  const mains: DomElement[] = [];
  const articles: DomElement[] = [];
  let body: DomElement | undefined;

  // Depth-first, in document order; the flags say whether the node sits inside a <main> or <article> already,
  // so only the outermost ones become content roots.
  const stack: Array<{ node: DomNode; inMain: boolean; inArticle: boolean }> = dom.children
    .map((node) => ({ node, inMain: false, inArticle: false }))
    .reverse();
  while (stack.length > 0) {
    const { node, inMain, inArticle } = stack.pop()!;
    if (!isElement(node)) continue;
    const name = node.name;
    if (name === 'template') continue;
    const attr = (key: string) => node.attribs[key];
    switch (name) {
      case 'html':
        lang ??= attr('lang')?.trim() || undefined;
        break;
      case 'body':
        body ??= node;
        break;
      case 'title':
        title ??= collapse(DomUtils.textContent(node));
        break;
      case 'base':
        baseHref ??= attr('href');
        break;
      case 'link':
        if (tokens(attr('rel')).includes('canonical')) canonicalHref ??= attr('href');
        break;
      case 'meta': {
        const metaName = (attr('name') ?? '').toLowerCase();
        if (metaName === 'robots') {
          const directives = tokens(attr('content'), /[\s,]+/);
          if (directives.includes('noindex') || directives.includes('none')) metaRobots.noindex = true;
          if (directives.includes('nofollow') || directives.includes('none')) metaRobots.nofollow = true;
        }
        if (attr('property') === 'og:title' && !ogTitle) ogTitle = collapse(attr('content') ?? '');
        if (!lang && (attr('http-equiv') ?? '').toLowerCase() === 'content-language') {
          lang = attr('content')?.split(',')[0]?.trim() || undefined;
        }
        break;
      }
      case 'a':
      case 'area': {
        const href = attr('href');
        if (href !== undefined && !tokens(attr('rel')).includes('nofollow')) hrefs.push(href);
        break;
      }
    }
    const isMain = name === 'main' || attr('role') === 'main';
    const isArticle = name === 'article' || attr('role') === 'article';
    if (isMain && !inMain && !isHidden(node)) mains.push(node);
    if (isArticle && !inArticle && !inMain && !isHidden(node)) articles.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push({ node: node.children[i]!, inMain: inMain || isMain, inArticle: inArticle || isArticle });
    }
  }

  const base = resolveBase(baseUrl, baseHref);
  const links = [...new Set(hrefs.map((href) => absoluteHttpUrl(href, base)).filter(isString))];
  const canonicalUrl = canonicalHref === undefined ? undefined : absoluteHttpUrl(canonicalHref, base);
  const contentRoots: DomNode[] = mains.length > 0 ? mains : articles.length > 0 ? articles : [body ?? dom];
  return {
    title: title ?? '',
    ogTitle,
    links,
    ...(canonicalUrl ? { canonicalUrl } : {}),
    metaRobots,
    ...(lang ? { lang } : {}),
    contentRoots,
    rootsAreContent: mains.length > 0 || articles.length > 0,
  };
}

function resolveBase(baseUrl: string | undefined, baseHref: string | undefined): URL | undefined {
  const page = baseUrl ? parseUrl(baseUrl) : undefined;
  if (baseHref === undefined) return page;
  return parseUrl(baseHref.trim(), page) ?? page;
}

function absoluteHttpUrl(href: string, base: URL | undefined): string | undefined {
  const url = parseUrl(href.trim(), base);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  url.hash = '';
  return url.href;
}

function parseUrl(value: string, base?: URL): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}

function tokens(value: string | undefined, separator = /\s+/): string[] {
  return (value ?? '').toLowerCase().split(separator).filter(Boolean);
}

function isHidden(element: DomElement): boolean {
  const { attribs } = element;
  return (
    'hidden' in attribs ||
    attribs['aria-hidden'] === 'true' ||
    /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attribs.style ?? '')
  );
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ── Rendering the content ────────────────────────────────────────────────────────────────────────────────────

interface ListContext {
  ordered: boolean;
  next: number;
}

type Step = { node: DomNode; inContent: boolean } | { leave: () => void };

function renderContent(root: DomNode, writer: TextWriter, rootIsContent: boolean): void {
  const lists: ListContext[] = [];
  const steps: Step[] = [{ node: root, inContent: rootIsContent }];
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ('leave' in step) {
      step.leave();
      continue;
    }
    const { node, inContent } = step;
    if (isText(node)) {
      writer.text(node.data);
      continue;
    }
    if (!isElement(node)) {
      // the document root (when there is no <body>) and CDATA sections carry children; comments do not
      if (hasChildren(node)) pushChildren(steps, node.children, inContent);
      continue;
    }
    const name = node.name;
    const role = node.attribs.role;
    if (SKIPPED.has(name) || name === 'nav' || role === 'navigation' || isHidden(node)) continue;
    if (!inContent && (CHROME.has(name) || (role !== undefined && CHROME_ROLES.has(role)))) continue;
    const childrenInContent = inContent || name === 'main' || name === 'article' || role === 'main';

    const level = HEADING_LEVELS[name];
    if (level !== undefined) {
      writer.heading(level, collapse(textOf(node)));
      continue;
    }
    switch (name) {
      case 'br':
        writer.lineBreak();
        continue;
      case 'hr':
        writer.block(2);
        continue;
      case 'pre':
        writer.preformatted(textOf(node));
        continue;
      case 'table':
        writer.table(tableRows(node));
        continue;
      case 'ul':
      case 'ol':
      case 'menu': {
        const start = Number.parseInt(node.attribs.start ?? '', 10);
        lists.push({ ordered: name === 'ol', next: Number.isFinite(start) ? start : 1 });
        writer.block(lists.length === 1 ? 2 : 1);
        steps.push({
          leave: () => {
            lists.pop();
            writer.block(lists.length === 0 ? 2 : 1);
          },
        });
        pushChildren(steps, node.children, childrenInContent);
        continue;
      }
      case 'li': {
        const list = lists.at(-1);
        const depth = Math.max(lists.length - 1, 0);
        const marker = list?.ordered ? `${list.next++}. ` : '- ';
        writer.block(1);
        writer.linePrefix(`${'  '.repeat(depth)}${marker}`);
        steps.push({ leave: () => writer.block(1) });
        pushChildren(steps, node.children, childrenInContent);
        continue;
      }
    }
    if (BLOCKS.has(name) || name === 'td' || name === 'th' || name === 'tr') {
      // inside a list, paragraphs stay on consecutive lines so the items read as one list
      const gap = PARAGRAPHS.has(name) && lists.length === 0 ? 2 : 1;
      writer.block(gap);
      steps.push({ leave: () => writer.block(gap) });
    }
    pushChildren(steps, node.children, childrenInContent);
  }
}

function pushChildren(steps: Step[], children: DomNode[], inContent: boolean): void {
  for (let i = children.length - 1; i >= 0; i--) steps.push({ node: children[i]!, inContent });
}

/** Every visible text below `node`, in order, with skipped elements left out (iteratively). */
function visibleTexts(node: DomNode, visit: (text: string) => void): void {
  const stack: DomNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) {
      visit(current.data);
      continue;
    }
    if (isElement(current)) {
      if (SKIPPED.has(current.name) || isHidden(current)) continue;
      if (current.name === 'br') {
        visit('\n');
        continue;
      }
    }
    if (hasChildren(current)) {
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
    }
  }
}

/** The visible text below `node` as written; <br> becomes a line break. */
function textOf(node: DomNode): string {
  const parts: string[] = [];
  visibleTexts(node, (text) => parts.push(text));
  return parts.join('');
}

/** A table's rows as cell texts; rows of nested tables are flattened into their cell. */
function tableRows(table: DomElement): string[][] {
  const rows: string[][] = [];
  const stack: DomNode[] = [...table.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node) || SKIPPED.has(node.name) || isHidden(node)) continue;
    if (node.name === 'tr') {
      const cells = node.children
        .filter((cell): cell is DomElement => isElement(cell) && (cell.name === 'td' || cell.name === 'th'))
        .map((cell) => collapse(textOf(cell)));
      if (cells.some(Boolean)) rows.push(cells);
      continue;
    }
    if (node.name === 'caption') {
      const caption = collapse(textOf(node));
      if (caption) rows.push([caption]);
      continue;
    }
    if (node.name === 'table') continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return rows;
}

/**
 * Builds the text with at most one blank line between blocks, no leading or trailing whitespace on lines (outside
 * <pre>), and heading offsets that are exact because nothing is rewritten afterwards.
 */
class TextWriter {
  #out = '';
  #pendingBreaks = 0;
  #pendingSpace = false;
  #prefix = '';
  readonly #headings: HtmlHeading[] = [];

  /** Inline text: runs of whitespace become one space, and none starts or ends a line. */
  text(raw: string): void {
    const collapsed = raw.replace(/\s+/g, ' ');
    if (collapsed === '') return;
    const core = collapsed.trim();
    if (core === '') {
      this.#pendingSpace = true;
      return;
    }
    this.#emit(core, collapsed.startsWith(' '));
    this.#pendingSpace = collapsed.endsWith(' ');
  }

  /** Asks for `lines` line breaks before whatever comes next (1: new line, 2: blank line). */
  block(lines: 1 | 2): void {
    if (this.#out !== '') this.#pendingBreaks = Math.max(this.#pendingBreaks, lines);
  }

  lineBreak(): void {
    this.block(1);
  }

  /** A list marker, written only if the item turns out to have text. */
  linePrefix(prefix: string): void {
    this.#prefix = prefix;
  }

  heading(level: number, text: string): void {
    if (text === '') return;
    this.block(2);
    this.#prefix = '';
    this.#emit(`${'#'.repeat(level)} `, false);
    this.#headings.push({ level, text, offset: this.#out.length });
    this.#out += text;
    this.block(2);
  }

  preformatted(raw: string): void {
    const lines = raw.replace(/\r\n?/g, '\n').split('\n');
    while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
    while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
    if (lines.length === 0) return;
    this.block(2);
    this.#emit(
      lines
        .map((line) => line.trimEnd())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n'),
      false,
    );
    this.block(2);
  }

  table(rows: string[][]): void {
    if (rows.length === 0) return;
    this.block(2);
    for (const row of rows) {
      this.#emit(row.map((cell) => cell.replace(/\t/g, ' ')).join('\t'), false);
      this.block(1);
    }
    this.block(2);
  }

  finish(): { text: string; headings: HtmlHeading[] } {
    return { text: this.#out, headings: this.#headings };
  }

  #emit(content: string, leadingSpace: boolean): void {
    if (this.#out === '') {
      this.#out = this.#prefix + content;
    } else if (this.#pendingBreaks > 0) {
      this.#out += '\n'.repeat(this.#pendingBreaks) + this.#prefix + content;
    } else {
      this.#out += (leadingSpace || this.#pendingSpace ? ' ' : '') + content;
    }
    this.#pendingBreaks = 0;
    this.#pendingSpace = false;
    this.#prefix = '';
  }
}
