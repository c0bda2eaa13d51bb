import { describe, expect, it } from 'vitest';
import { BOOKMARK_LINK_FORMAT } from '../../../common/api/bookmarks';
import { BOOKMARKS_PER_LIST_MAX, BOOKMARK_TITLE_MAX_CHARS } from '../../../common/limits';
import { validation } from '../../../common/strings';
import { canAddTo, canEditList, checkDraft, moveBookmark, safeHref, showsList } from './bookmarks';

const list = [
  { title: 'Handbook', link: 'https://handbook.example' },
  { title: 'Wiki', link: 'https://wiki.example' },
  { title: 'Status', link: 'https://status.example' },
];

describe('the bookmark dialog', () => {
  it('says nothing about empty fields, and keeps Save disabled until both are valid', () => {
    expect(checkDraft({ title: '', link: '' }, list)).toEqual({
      titleError: null,
      linkError: null,
      valid: false,
    });
    expect(checkDraft({ title: 'Roadmap', link: '' }, list).valid).toBe(false);
    expect(checkDraft({ title: 'Roadmap', link: 'https://roadmap.example/q3' }, list)).toEqual({
      titleError: null,
      linkError: null,
      valid: true,
    });
  });

  it("shows the spec's URL error for a link that is typed but invalid, javascript: included", () => {
    for (const link of ['roadmap', 'javascript:alert(1)', 'ftp://files.example']) {
      const check = checkDraft({ title: 'Roadmap', link }, list);
      expect(check.linkError).toBe(validation.invalidUrl(BOOKMARK_LINK_FORMAT));
      expect(check.valid).toBe(false);
    }
  });

  it('refuses a title the list already has, whatever its case, and one over the limit', () => {
    expect(checkDraft({ title: ' wiki ', link: 'https://w.example' }, list)).toMatchObject({
      titleError: validation.DUPLICATE_BOOKMARK_TITLE,
      valid: false,
    });
    expect(
      checkDraft({ title: 'x'.repeat(BOOKMARK_TITLE_MAX_CHARS + 1), link: 'https://w.example' }, list).valid,
    ).toBe(false);
  });
});

describe('the bookmark rows', () => {
  it('moves a dragged bookmark to where it is dropped, keeping the others in order', () => {
    expect(moveBookmark(list, 2, 0).map((b) => b.title)).toEqual(['Status', 'Handbook', 'Wiki']);
    expect(moveBookmark(list, 0, 2).map((b) => b.title)).toEqual(['Wiki', 'Status', 'Handbook']);
    expect(moveBookmark(list, 1, 1)).toEqual(list);
  });

  it('lets admins alone edit the company row, and hides it from members while it is empty', () => {
    expect(canEditList('company', false)).toBe(false);
    expect(canEditList('company', true)).toBe(true);
    expect(canEditList('personal', false)).toBe(true);
    expect(showsList('company', false, [])).toBe(false);
    expect(showsList('company', false, list)).toBe(true);
    expect(showsList('company', true, [])).toBe(true);
    expect(showsList('personal', false, [])).toBe(true);
  });

  it(`hides the add button at ${BOOKMARKS_PER_LIST_MAX}`, () => {
    const full = Array.from({ length: BOOKMARKS_PER_LIST_MAX }, (_, i) => ({
      title: `t${i}`,
      link: `https://t${i}.example`,
    }));
    expect(canAddTo(full.slice(1))).toBe(true);
    expect(canAddTo(full)).toBe(false);
  });

  it('makes only http(s) links clickable', () => {
    expect(safeHref('https://wiki.example/a?b=c')).toBe('https://wiki.example/a?b=c');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,hi')).toBeUndefined();
  });
});
