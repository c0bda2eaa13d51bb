import { describe, expect, it } from 'vitest';
import { readersOf } from './acl';

describe('readersOf', () => {
  it('names users and the organisation’s Google groups by lower-cased email', () => {
    expect(
      readersOf(
        [
          { type: 'user', role: 'writer', emailAddress: 'Ann@Acme.test' },
          { type: 'group', role: 'reader', emailAddress: 'Eng@Acme.test' },
          { type: 'user', role: 'reader', emailAddress: 'ann@acme.test' },
        ],
        'acme.test',
      ),
    ).toEqual(['group:google:eng@acme.test', 'user:ann@acme.test']);
  });

  it('opens a file to the organisation only for a discoverable grant to its own domain or to anyone', () => {
    const discoverable = { role: 'reader', allowFileDiscovery: true };
    expect(readersOf([{ type: 'domain', domain: 'ACME.test', ...discoverable }], 'acme.test')).toEqual([
      'org',
    ]);
    expect(readersOf([{ type: 'anyone', ...discoverable }], 'acme.test')).toEqual(['org']);
    expect(readersOf([{ type: 'domain', domain: 'partner.test', ...discoverable }], 'acme.test')).toEqual([]);
    expect(
      readersOf(
        [
          { type: 'domain', domain: 'acme.test', role: 'reader', allowFileDiscovery: false },
          { type: 'anyone', role: 'reader', allowFileDiscovery: false },
        ],
        'acme.test',
      ),
    ).toEqual([]);
  });

  it('grants nothing through deleted accounts, published views or permissions without an address', () => {
    expect(
      readersOf(
        [
          { type: 'user', role: 'reader', emailAddress: 'gone@acme.test', deleted: true },
          { type: 'anyone', role: 'reader', allowFileDiscovery: true, view: 'published' },
          { type: 'user', role: 'reader' },
        ],
        'acme.test',
      ),
    ).toEqual([]);
  });
});
