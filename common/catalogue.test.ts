import { describe, it, expect } from 'vitest';
import {
  APPS,
  APP_SHORTNAMES,
  AppCategory,
  COOKIE_REFRESH_APPS,
  ConnectionType,
  DIRECT_INSTALL_NOTICE_APPS,
  FINCH_HRIS_ROUTE_APP,
  GWORKSPACE_CHILDREN,
  HRIS_APPS,
  InstantAvailable,
  NO_VISIBLE_CONNECT_APPS,
  ONE_INDIVIDUAL_CONNECTION_APPS,
  ONE_ORG_CONNECTION_APPS,
  ObjectType,
  POPULAR_APP_ORDER,
  SOURCE_FILTER_APPS,
  appStoreApps,
  appsInCategory,
  getApp,
  isHris,
  isInstant,
  objectTypeParam,
  supportsOrg,
  supportsPersonal,
} from './catalogue';

const app = (shortname: string) => {
  const found = getApp(shortname);
  if (!found) throw new Error(`no app ${shortname}`);
  return found;
};

describe('catalogue', () => {
  it('has exactly the 76 apps of the spec, each once', () => {
    expect(APPS).toHaveLength(76);
    expect(new Set(APP_SHORTNAMES).size).toBe(76);
  });

  it('orders the popular apps slack, notion, gdrive, website, salesforce', () => {
    expect(POPULAR_APP_ORDER).toEqual(['slack', 'notion', 'gdrive', 'website', 'salesforce']);
    POPULAR_APP_ORDER.forEach((shortname, index) => {
      expect(app(shortname).popularAppSortOrder).toBe(index + 1);
      expect(app(shortname).appCategory).toContain(AppCategory.POPULAR);
    });
    const popular = APPS.filter(
      (a) => a.popularAppSortOrder !== undefined || a.appCategory.includes('POPULAR'),
    );
    expect(popular.map((a) => a.shortname).sort()).toEqual([...POPULAR_APP_ORDER].sort());
  });

  it('hangs gmail, gcal and gdrive off gworkspace and nothing else', () => {
    expect([...GWORKSPACE_CHILDREN].sort()).toEqual(['gcal', 'gdrive', 'gmail']);
    for (const shortname of GWORKSPACE_CHILDREN) expect(app(shortname).parent).toBe('gworkspace');
    const withParent = APPS.filter((a) => a.parent !== undefined).map((a) => a.shortname);
    expect(withParent.sort()).toEqual(['gcal', 'gdrive', 'gmail']);
  });

  it('has exactly the HRIS set, all org-only with no individual connection', () => {
    expect([...HRIS_APPS].sort()).toEqual([
      'bamboo_hr',
      'bob',
      'darwinbox',
      'gusto',
      'paylocity',
      'rippling',
      'workday',
    ]);
    const inHrisCategory = APPS.filter((a) => a.appCategory.includes(AppCategory.HRIS)).map(
      (a) => a.shortname,
    );
    expect(inHrisCategory.sort()).toEqual([...HRIS_APPS].sort());
    for (const shortname of HRIS_APPS) {
      expect(isHris(shortname)).toBe(true);
      expect(app(shortname).connectionType).toBe(ConnectionType.OrgOnly);
      expect(supportsPersonal(app(shortname))).toBe(false);
      expect(supportsOrg(app(shortname))).toBe(true);
    }
    expect(isHris('slack')).toBe(false);
    expect(isHris(FINCH_HRIS_ROUTE_APP)).toBe(false);
    expect(getApp(FINCH_HRIS_ROUTE_APP)).toBeUndefined();
  });

  it('keeps the hidden apps out of the store', () => {
    const hidden = APPS.filter((a) => !a.showInAppStore).map((a) => a.shortname);
    expect(hidden.sort()).toEqual(['gworkspace', 'gworkspace-directory', 'rippling']);
    const store = appStoreApps().map((a) => a.shortname);
    expect(store).toHaveLength(73);
    for (const shortname of hidden) expect(store).not.toContain(shortname);
  });

  it('lists the store popular first, then by display name', () => {
    const store = appStoreApps();
    expect(store.slice(0, 5).map((a) => a.shortname)).toEqual([...POPULAR_APP_ORDER]);
    const rest = store.slice(5).map((a) => a.displayName);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(appsInCategory(AppCategory.ALL)).toHaveLength(store.length);
    expect(appsInCategory(AppCategory.POPULAR).map((a) => a.shortname)).toEqual([...POPULAR_APP_ORDER]);
    expect(appsInCategory(AppCategory.MESSAGING).map((a) => a.shortname)).toContain('slack');
  });

  it('fills every field with valid values', () => {
    const connectionTypes: readonly string[] = Object.values(ConnectionType);
    const objectTypes: readonly string[] = Object.values(ObjectType);
    const categories: readonly string[] = Object.values(AppCategory);
    for (const a of APPS) {
      expect(a.displayName.trim(), a.shortname).not.toBe('');
      expect(a.description.trim(), a.shortname).not.toBe('');
      expect(connectionTypes).toContain(a.connectionType);
      for (const type of a.objectTypes) expect(objectTypes).toContain(type);
      for (const category of a.appCategory) expect(categories).toContain(category);
      expect(a.appCategory).not.toContain(AppCategory.ALL);
      expect(Number.isInteger(a.instantAvailable)).toBe(true);
      expect(a.instantAvailable & ~InstantAvailable.Both).toBe(0);
      expect(a.instantAvailable).toBeGreaterThanOrEqual(InstantAvailable.NotAvailable);
      expect(typeof a.showInAppStore).toBe('boolean');
      expect(typeof a.controlEnabled).toBe('boolean');
      if (a.showInAppStore) {
        expect(a.objectTypes.length, a.shortname).toBeGreaterThan(0);
        expect(a.appCategory.length, a.shortname).toBeGreaterThan(0);
      }
      if (a.parent !== undefined) expect(getApp(a.parent)).toBeDefined();
    }
  });

  it('keeps connection types and instant bits consistent', () => {
    for (const a of APPS) {
      if (a.connectionType === ConnectionType.OrgOnly) {
        expect(a.instantAvailable & InstantAvailable.Personal, a.shortname).toBe(0);
      }
      if (a.connectionType === ConnectionType.PersonalOnly) {
        expect(supportsOrg(a)).toBe(false);
        expect(a.instantAvailable, a.shortname).toBe(InstantAvailable.Personal);
      }
    }
    for (const shortname of ONE_INDIVIDUAL_CONNECTION_APPS)
      expect(supportsPersonal(app(shortname))).toBe(true);
    for (const shortname of ONE_ORG_CONNECTION_APPS) expect(supportsOrg(app(shortname))).toBe(true);
    for (const shortname of GWORKSPACE_CHILDREN) expect(supportsOrg(app(shortname))).toBe(true);
    expect(supportsPersonal(app('website'))).toBe(false);
    expect(isInstant(app('slack'), true)).toBe(true);
    expect(isInstant(app('website'), false)).toBe(false);
  });

  it('holds the spec groupings, all naming real apps', () => {
    expect([...SOURCE_FILTER_APPS].sort()).toEqual(['confluence', 'gdrive', 'notion', 'slack']);
    expect([...DIRECT_INSTALL_NOTICE_APPS].sort()).toEqual(['custom-api', 'gsites', 'servicenow', 'simpplr']);
    expect([...NO_VISIBLE_CONNECT_APPS].sort()).toEqual(
      [...HRIS_APPS, 'custom-api', 'gsites', 'website'].sort(),
    );
    expect([...COOKIE_REFRESH_APPS].sort()).toEqual(
      ['figma', 'freshdesk', 'freshservice', 'gong', 'highspot', 'monday', 'notion'].sort(),
    );
    expect([...ONE_ORG_CONNECTION_APPS].sort()).toEqual(['onedrive', 'outlook']);
    expect([...ONE_INDIVIDUAL_CONNECTION_APPS].sort()).toEqual(
      ['figma', 'freshdesk', 'freshservice', 'gong', 'highspot', 'monday', 'notion'].sort(),
    );
    expect(app('website').connectionType).toBe(ConnectionType.OrgOnly);
    expect(app('custom-api').appCategory).toEqual([AppCategory.CUSTOM]);
  });

  it('spells object types in lower case for the search filter', () => {
    expect(objectTypeParam(ObjectType.Articles)).toBe('articles');
  });
});
