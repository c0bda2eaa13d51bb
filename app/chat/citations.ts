// Citations in an answer (spec asking-questions §3: the answer's [n] is the n-th reference). A remark plugin turns
// each [n] in the text (never inside code, never inside a link) into a link the renderer maps to reference n.
import type { Link, Nodes, Parent, PhrasingContent, Root, Text } from 'mdast';

const CITATION = /\[(\d{1,3})\]/g;
const CITATION_HREF_PREFIX = '#cite-';

export function citationHref(n: number): string {
  return `${CITATION_HREF_PREFIX}${n}`;
}

/** The reference number a rendered link stands for, or null for an ordinary link. */
export function citationNumber(href: string | undefined): number | null {
  if (!href?.startsWith(CITATION_HREF_PREFIX)) return null;
  const n = Number(href.slice(CITATION_HREF_PREFIX.length));
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** A text node's value cut into plain text and citation links. */
export function splitCitations(value: string): PhrasingContent[] {
  const parts: PhrasingContent[] = [];
  let last = 0;
  for (const match of value.matchAll(CITATION)) {
    const index = match.index;
    if (index > last) parts.push({ type: 'text', value: value.slice(last, index) } satisfies Text);
    const n = Number(match[1]);
    parts.push({
      type: 'link',
      url: citationHref(n),
      children: [{ type: 'text', value: String(n) }],
    } satisfies Link);
    last = index + match[0].length;
  }
  if (last < value.length) parts.push({ type: 'text', value: value.slice(last) });
  return parts;
}

function walk(node: Parent): void {
  const children: Nodes[] = [];
  for (const child of node.children as Nodes[]) {
    if (child.type === 'text') {
      children.push(...splitCitations(child.value));
    } else {
      if ('children' in child && child.type !== 'link' && child.type !== 'linkReference') walk(child);
      children.push(child);
    }
  }
  node.children = children as Parent['children'];
}

export function remarkCitations() {
  return (tree: Root) => walk(tree);
}
