// Notion's row: a wiki shared with the integration, sections of pages of headings, paragraphs and lists, edited
// over two years.
import { notionConnector } from '../../connectors/notion';
import { blocks, startNotionFake, type NotionFake, type PageSpec } from '../../connectors/notion/fake';
import { changedText, connectorRow, paragraphsOf, textPieces } from '../connector-bench';

const PAGES_PER_SECTION = 200;
const DAYS = 2 * 365;

interface NotionWorkspace {
  notion: NotionFake;
  pages: PageSpec[];
}

function pageBlocks(title: string, body: string) {
  const [first = '', ...rest] = paragraphsOf(body);
  return [
    blocks.heading(title),
    blocks.paragraph(first),
    ...rest.map((text, i) => (i % 4 === 3 ? blocks.bullet(text) : blocks.paragraph(text))),
  ];
}

export const notionRow = connectorRow({
  connector: notionConnector,
  isOrg: true,
  async startWorkspace(items) {
    const notion = await startNotionFake();
    // The fixture's pages go to the trash, and what the integration reached through them with them.
    for (const key of ['handbook', 'press', 'old']) notion.trash(key);
    const pages: PageSpec[] = [];
    let k = 0;
    for (const { title, body } of textPieces(items, { min: 300, max: 6_000 })) {
      // Page 0 is the wiki's root, the one page shared with the integration; every 200th a section under it.
      const section = Math.floor(k / PAGES_PER_SECTION) * PAGES_PER_SECTION;
      const parent = k === 0 ? 'workspace' : { page: k === section ? 'page-0' : `page-${section}` };
      const spec: PageSpec = {
        key: `page-${k}`,
        title,
        parent,
        blocks: pageBlocks(title, body),
        editedDaysAgo: (k * DAYS) / items,
      };
      notion.upsertPage(spec);
      pages.push(spec);
      k += 1;
    }
    notion.share('page-0');
    return {
      fake: { notion, pages },
      config: { baseUrl: notion.url },
      credentials: { access_token: notion.token },
    };
  },
  change({ notion, pages }: NotionWorkspace, changes) {
    for (let n = 0; n < changes; n++) {
      const { editedDaysAgo: _before, ...spec } = pages[n]!;
      notion.upsertPage({ ...spec, blocks: [...(spec.blocks ?? []), blocks.paragraph(changedText(n))] });
    }
  },
  requests: ({ notion }) => notion.server.requests.length,
  close: ({ notion }) => notion.close(),
});
