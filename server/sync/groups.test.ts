import { describe, expect, it } from 'vitest';
import { connectionPrincipal, expandGroups } from './groups';

const C = 'c0ffee';
const slack = { id: C, appName: 'slack' };
const guru = { id: C, appName: 'guru' };

describe('connection groups', () => {
  it('namespaces group principals to the connection and leaves the others alone', () => {
    expect(connectionPrincipal(slack, 'group:slack:C1')).toBe(`group:slack:${C}:C1`);
    // ids may hold colons (Slack enterprise ids, email-like ids): only the source prefix is split off
    expect(connectionPrincipal(slack, 'group:gdrive:team:eng@acme.test')).toBe(
      `group:gdrive:${C}:team:eng@acme.test`,
    );
    for (const principal of ['user:ann@acme.test', 'org', 'public'])
      expect(connectionPrincipal(slack, principal)).toBe(principal);
  });

  it('keeps a Google group org-wide only when one of Google’s apps names it', () => {
    for (const appName of ['gdrive', 'gmail', 'gcal', 'gworkspace-directory'])
      expect(connectionPrincipal({ id: C, appName }, 'group:google:eng@acme.test')).toBe(
        'group:google:eng@acme.test',
      );
    // Anyone else naming it (a custom-api feed, an archive) gets a group of their own connection.
    for (const appName of ['custom-api', 'gsites', 'slack'])
      expect(connectionPrincipal({ id: C, appName }, 'group:google:eng@acme.test')).toBe(
        `group:google:${C}:eng@acme.test`,
      );
    // A Google app's id that is no email stays its connection's, where it cannot meet a namespaced one.
    expect(connectionPrincipal({ id: C, appName: 'gdrive' }, 'group:google:x:eng@acme.test')).toBe(
      `group:google:${C}:x:eng@acme.test`,
    );
    expect(connectionPrincipal({ id: C, appName: 'gdrive' }, 'group:gdrive:eng@acme.test')).toBe(
      `group:gdrive:${C}:eng@acme.test`,
    );
  });

  it('flattens nested groups, survives cycles, and adds nobody for a group the source did not list', () => {
    const rows = expandGroups(guru, [
      { group: 'group:guru:a', members: ['user:ann@acme.test', 'group:guru:b', 'group:guru:ghost'] },
      { group: 'group:guru:b', members: ['user:bob@acme.test', 'group:guru:a'] },
      // the same group over two pages: both pages count
      { group: 'group:guru:b', members: ['user:cat@acme.test'] },
      { group: 'group:guru:empty', members: [] },
    ]);
    const emails = (group: string) =>
      rows
        .filter((row) => row.groupKey === `group:guru:${C}:${group}`)
        .map((row) => row.memberEmail)
        .sort();
    expect(emails('a')).toEqual(['ann@acme.test', 'bob@acme.test', 'cat@acme.test']);
    expect(emails('b')).toEqual(['ann@acme.test', 'bob@acme.test', 'cat@acme.test']);
    expect(emails('empty')).toEqual([]);
    expect(emails('ghost')).toEqual([]);
    expect(rows).toHaveLength(6);
  });
});
