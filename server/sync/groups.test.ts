import { describe, expect, it } from 'vitest';
import { connectionPrincipal, expandGroups } from './groups';

const C = 'c0ffee';

describe('connection groups', () => {
  it('namespaces group principals to the connection and leaves the others alone', () => {
    expect(connectionPrincipal(C, 'group:slack:C1')).toBe(`group:slack:${C}:C1`);
    // ids may hold colons (Slack enterprise ids, email-like ids): only the source prefix is split off
    expect(connectionPrincipal(C, 'group:gdrive:team:eng@acme.test')).toBe(
      `group:gdrive:${C}:team:eng@acme.test`,
    );
    for (const principal of ['user:ann@acme.test', 'org', 'public'])
      expect(connectionPrincipal(C, principal)).toBe(principal);
  });

  it('flattens nested groups, survives cycles, and adds nobody for a group the source did not list', () => {
    const rows = expandGroups(C, [
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
