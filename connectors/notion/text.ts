// Notion objects as plain text for the index: rich text, one line per block (indented by depth, lists marked as
// Markdown would), database properties as "Name: value" lines, and titles.
import type {
  BlockObjectResponse,
  DataSourceObjectResponse,
  PageObjectResponse,
  RichTextItemResponse,
} from '@notionhq/client';

export const UNTITLED = 'Untitled';

export function plainText(items: readonly RichTextItemResponse[]): string {
  return items.map((item) => item.plain_text).join('');
}

type PropertyValue = PageObjectResponse['properties'][string];

export function pageTitle(page: PageObjectResponse): string {
  for (const value of Object.values(page.properties)) {
    if (value.type === 'title') return plainText(value.title).trim() || UNTITLED;
  }
  return UNTITLED;
}

export function dataSourceTitle(dataSource: DataSourceObjectResponse): string {
  return plainText(dataSource.title).trim() || UNTITLED;
}

type UserValue = Extract<PropertyValue, { type: 'people' }>['people'][number];

function personName(user: UserValue): string {
  return 'name' in user && user.name ? user.name : '';
}

/** A property's value as text; '' for what has none worth indexing (relations are ids, buttons are actions). */
export function propertyText(value: PropertyValue): string {
  switch (value.type) {
    case 'title':
      return plainText(value.title);
    case 'rich_text':
      return plainText(value.rich_text);
    case 'number':
      return value.number === null ? '' : String(value.number);
    case 'select':
      return value.select?.name ?? '';
    case 'status':
      return value.status?.name ?? '';
    case 'multi_select':
      return value.multi_select.map((option) => option.name).join(', ');
    case 'date':
      return value.date ? [value.date.start, value.date.end].filter(Boolean).join(' → ') : '';
    case 'checkbox':
      return value.checkbox ? 'Yes' : 'No';
    case 'url':
      return value.url ?? '';
    case 'email':
      return value.email ?? '';
    case 'phone_number':
      return value.phone_number ?? '';
    case 'people':
      return value.people.map(personName).filter(Boolean).join(', ');
    case 'files':
      return value.files.map((file) => file.name).join(', ');
    case 'unique_id':
      return value.unique_id.number === null
        ? ''
        : `${value.unique_id.prefix ? `${value.unique_id.prefix}-` : ''}${value.unique_id.number}`;
    case 'formula': {
      const formula = value.formula;
      if (formula.type === 'string') return formula.string ?? '';
      if (formula.type === 'number') return formula.number === null ? '' : String(formula.number);
      if (formula.type === 'boolean') return formula.boolean === null ? '' : formula.boolean ? 'Yes' : 'No';
      if (formula.type === 'date') return formula.date?.start ?? '';
      return '';
    }
    case 'created_time':
      return value.created_time;
    case 'last_edited_time':
      return value.last_edited_time;
    default:
      return '';
  }
}

/** A database row's properties other than its title, one "Name: value" line each, in the API's order. */
export function propertyLines(page: PageObjectResponse): string[] {
  return Object.entries(page.properties).flatMap(([name, value]) => {
    if (value.type === 'title') return [];
    const text = propertyText(value).trim();
    return text === '' ? [] : [`${name}: ${text}`];
  });
}

/** A block's own line (children come after it, one level deeper); null for blocks with no text of their own. */
export function blockLine(block: BlockObjectResponse, listNumber: number): string | null {
  switch (block.type) {
    case 'paragraph':
      return plainText(block.paragraph.rich_text);
    case 'heading_1':
      return `# ${plainText(block.heading_1.rich_text)}`;
    case 'heading_2':
      return `## ${plainText(block.heading_2.rich_text)}`;
    case 'heading_3':
      return `### ${plainText(block.heading_3.rich_text)}`;
    case 'bulleted_list_item':
      return `- ${plainText(block.bulleted_list_item.rich_text)}`;
    case 'numbered_list_item':
      return `${listNumber}. ${plainText(block.numbered_list_item.rich_text)}`;
    case 'to_do':
      return `[${block.to_do.checked ? 'x' : ' '}] ${plainText(block.to_do.rich_text)}`;
    case 'toggle':
      return plainText(block.toggle.rich_text);
    case 'quote':
      return `> ${plainText(block.quote.rich_text)}`;
    case 'callout':
      return plainText(block.callout.rich_text);
    case 'code':
      return plainText(block.code.rich_text);
    case 'equation':
      return block.equation.expression;
    case 'table_row':
      return `| ${block.table_row.cells.map(plainText).join(' | ')} |`;
    case 'child_page':
      return `Page: ${block.child_page.title}`;
    case 'child_database':
      return `Database: ${block.child_database.title}`;
    case 'bookmark':
      return [plainText(block.bookmark.caption), block.bookmark.url].filter(Boolean).join(' ');
    case 'embed':
      return block.embed.url;
    case 'link_preview':
      return block.link_preview.url;
    case 'image':
      return plainText(block.image.caption) || null;
    case 'video':
      return plainText(block.video.caption) || null;
    case 'pdf':
      return plainText(block.pdf.caption) || null;
    case 'file':
      return [block.file.name, plainText(block.file.caption)].filter(Boolean).join(' ') || null;
    case 'divider':
      return '---';
    default:
      return null;
  }
}

/** Blocks whose children are documents of their own, fetched and indexed as such. */
export function childrenAreDocuments(block: BlockObjectResponse): boolean {
  return block.type === 'child_page' || block.type === 'child_database';
}
