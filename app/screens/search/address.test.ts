import { describe, expect, it } from 'vitest';
import { ADDRESS_DEFAULTS, readSearchAddress, searchRequestOf, writeSearchAddress } from './address';

describe('the search page address', () => {
  it('reads defaults for missing or unknown values and leaves defaults out when writing', () => {
    const state = readSearchAddress(
      new URLSearchParams('q=budget&app=nosuch&sort=sideways&filetype=pdf&x=1'),
    );
    expect(state).toEqual({ ...ADDRESS_DEFAULTS, q: 'budget', filetype: 'pdf' });
    expect(writeSearchAddress(new URLSearchParams('x=1&app=slack'), state).toString()).toBe(
      'x=1&q=budget&filetype=pdf',
    );
  });

  it('maps the address to the _search body', () => {
    const state = readSearchAddress(
      new URLSearchParams(
        'q=a&app=slack&filter=messages&modified=week&person=Ben@acme.test&sort=created_oldest',
      ),
    );
    expect(searchRequestOf(state)).toEqual({
      q: 'a',
      sort: 'created',
      order: 'asc',
      filters: {
        source: ['slack'],
        object_type: ['messages'],
        modified: 'week',
        person_filter: ['ben@acme.test'],
        filefilter: undefined,
      },
    });
  });
});
