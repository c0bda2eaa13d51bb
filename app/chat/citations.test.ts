import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { citationHref, citationNumber, remarkCitations, splitCitations } from './citations';

describe('citations', () => {
  it('turns each [n] into a citation link and leaves the rest as text', () => {
    expect(splitCitations('Sixteen weeks [1][2].')).toEqual([
      { type: 'text', value: 'Sixteen weeks ' },
      { type: 'link', url: '#cite-1', children: [{ type: 'text', value: '1' }] },
      { type: 'link', url: '#cite-2', children: [{ type: 'text', value: '2' }] },
      { type: 'text', value: '.' },
    ]);
  });

  it('maps a citation link back to its number and ignores ordinary links', () => {
    expect(citationNumber(citationHref(3))).toBe(3);
    expect(citationNumber('https://example.com')).toBeNull();
    expect(citationNumber('#cite-0')).toBeNull();
  });

  it('links citations in the rendered answer, never inside code, and renders no raw HTML', () => {
    const html = renderToStaticMarkup(
      createElement(
        Markdown,
        { remarkPlugins: [remarkGfm, remarkCitations], rehypePlugins: [rehypeSanitize] },
        'See **this** [1].\n\n`a[1]`\n\n```\nb[2]\n```\n\n<img src=x onerror=alert(1)><script>alert(2)</script>',
      ),
    );
    expect(html).toContain('<strong>this</strong>');
    expect(html).toContain('<a href="#cite-1">1</a>');
    expect(html).not.toContain('#cite-2');
    expect(html).toContain('<code>a[1]</code>');
    expect(html).not.toMatch(/<img|<script|onerror/);
  });
});
