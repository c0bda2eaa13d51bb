import { describe, expect, it } from 'vitest';
import { htmlToDocument } from './html';

const PAGE = `<!doctype html>
<html lang="en-GB">
<head>
  <title>  Travel &amp; Expenses  </title>
  <base href="/handbook/">
  <link rel="canonical" href="travel?ref=nav#top">
  <meta name="robots" content="noindex, follow">
  <script>document.write('<p>injected</p>')</script>
  <style>p { color: red }</style>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About us</a></nav>
  <header><p>Acme intranet banner</p></header>
  <main>
    <h1>Travel   policy</h1>
    <p>Book <b>economy</b>&nbsp;class for flights under six hours.<br>Trains are preferred.</p>
    <h2>Allowances</h2>
    <ul><li>Hotel: up to $180</li><li><p>Meals</p><ul><li>Breakfast</li></ul></li></ul>
    <ol start="3"><li>Submit receipts</li><li>Wait for approval</li></ol>
    <table>
      <caption>Per diem</caption>
      <tr><th>City</th><th>Rate</th></tr>
      <tr><td>London</td><td>£90</td></tr>
    </table>
    <pre>  line one
    indented</pre>
    <noscript><p>Enable JavaScript</p></noscript>
    <template><p>template text</p><a href="/hidden">hidden</a></template>
    <div hidden>invisible</div>
    <svg><text>chart label</text></svg>
    <p>See <a href="expenses#claims">expenses</a>, <a href="https://partner.example/x" rel="nofollow">partner</a>,
       <a href="mailto:travel@acme.test">mail</a> and <a href="../handbook/expenses">again</a>.</p>
  </main>
  <footer><p>© Acme</p><a href="/legal">Legal</a></footer>
</body>
</html>`;

describe('htmlToDocument', () => {
  const doc = htmlToDocument(PAGE, { baseUrl: 'https://intranet.acme.test/start/index.html' });

  it('keeps only the main content, in order, with headings, lists, tables and preformatted text', () => {
    expect(doc.text).toBe(
      [
        '# Travel policy',
        '',
        'Book economy class for flights under six hours.',
        'Trains are preferred.',
        '',
        '## Allowances',
        '',
        '- Hotel: up to $180',
        '- Meals',
        '  - Breakfast',
        '',
        '3. Submit receipts',
        '4. Wait for approval',
        '',
        'Per diem',
        'City\tRate',
        'London\t£90',
        '',
        '  line one',
        '    indented',
        '',
        'See expenses, partner, mail and again.',
      ].join('\n'),
    );
  });

  it('never renders scripts, styles, navigation, chrome or hidden content', () => {
    for (const boilerplate of [
      'injected',
      'color: red',
      'About us',
      'banner',
      'Enable JavaScript',
      'template text',
      'invisible',
      'chart label',
      'Acme',
    ]) {
      expect(doc.text).not.toContain(boilerplate);
    }
  });

  it('reports headings with offsets that point at their text', () => {
    expect(doc.headings.map(({ level, text }) => ({ level, text }))).toEqual([
      { level: 1, text: 'Travel policy' },
      { level: 2, text: 'Allowances' },
    ]);
    for (const heading of doc.headings) {
      expect(doc.text.slice(heading.offset, heading.offset + heading.text.length)).toBe(heading.text);
      expect(doc.text.slice(heading.offset - heading.level - 1, heading.offset)).toBe(
        `${'#'.repeat(heading.level)} `,
      );
    }
  });

  it('reads the title, language, canonical URL and robots directives from the head', () => {
    expect(doc.title).toBe('Travel & Expenses');
    expect(doc.lang).toBe('en-GB');
    expect(doc.canonicalUrl).toBe('https://intranet.acme.test/handbook/travel?ref=nav');
    expect(doc.metaRobots).toEqual({ noindex: true, nofollow: false });
  });

  it('absolutises links against <base>, strips fragments, drops duplicates, nofollow and non-http links', () => {
    expect(doc.links).toEqual([
      'https://intranet.acme.test/',
      'https://intranet.acme.test/about',
      'https://intranet.acme.test/handbook/expenses',
      'https://intranet.acme.test/legal',
    ]);
  });

  it('keeps relative links out when there is no base to resolve them against', () => {
    const page = htmlToDocument('<a href="/a">a</a><a href="https://b.test/b#x">b</a>');
    expect(page.links).toEqual(['https://b.test/b']);
  });

  it('reads "none" as noindex and nofollow', () => {
    const page = htmlToDocument('<meta name="ROBOTS" content="NONE"><p>x</p>');
    expect(page.metaRobots).toEqual({ noindex: true, nofollow: true });
  });

  it('uses all top-level articles when there is no <main>, keeping their own header and footer', () => {
    const page = htmlToDocument(`<body><header>Site name</header>
      <article><header><h2>First post</h2></header><p>One.</p><footer>Tagged: news</footer></article>
      <aside>Sidebar</aside>
      <article><h2>Second post</h2><p>Two.</p></article></body>`);
    expect(page.text).toBe('## First post\n\nOne.\n\nTagged: news\n\n## Second post\n\nTwo.');
    expect(page.title).toBe('');
  });

  it('drops site chrome from a page without main or article and falls back to the first h1 for a title', () => {
    const page = htmlToDocument(`<body><header><a href="/">Logo</a></header><aside>Related</aside>
      <h1>Plain page</h1><div>Body <span>text</span></div><footer>Footer</footer></body>`);
    expect(page.text).toBe('# Plain page\n\nBody text');
    expect(page.title).toBe('Plain page');
  });

  it('reads a fragment without html or body', () => {
    const page = htmlToDocument('<h3>Notes</h3><p>a &lt; b &amp;&amp; c</p>');
    expect(page.text).toBe('### Notes\n\na < b && c');
    expect(page.headings).toEqual([{ level: 3, text: 'Notes', offset: 4 }]);
  });

  it('reads nesting as deep as browsers do, and stops reading a page nested deeper', () => {
    const nested = (depth: number, text: string) =>
      `${'<div>'.repeat(depth)}${text}${'</div>'.repeat(depth)}`;
    expect(htmlToDocument(`<p>Intro</p>${nested(400, 'deep text')}`).text).toBe('Intro\n\ndeep text');
    const hostile = htmlToDocument(`<p>Intro</p>${nested(200_000, 'too deep')}<p>After</p>`);
    expect(hostile.text).toBe('Intro');
  });

  it('takes og:title when the page has no <title>', () => {
    expect(htmlToDocument('<meta property="og:title" content="Shared title"><h1>H</h1>').title).toBe(
      'Shared title',
    );
  });
});
