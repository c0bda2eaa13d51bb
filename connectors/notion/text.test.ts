import { describe, expect, it } from 'vitest';
import { richText, type PropertyValue } from './fake';
import { propertyText } from './text';

describe('propertyText', () => {
  const cases: [string, PropertyValue, string][] = [
    ['rich text', { id: 'a', type: 'rich_text', rich_text: richText('Quarterly goals') }, 'Quarterly goals'],
    ['an empty number', { id: 'b', type: 'number', number: null }, ''],
    ['a number', { id: 'b', type: 'number', number: 0 }, '0'],
    [
      'options',
      {
        id: 'c',
        type: 'multi_select',
        multi_select: [
          { id: '1', name: 'search', color: 'blue' },
          { id: '2', name: 'sync', color: 'red' },
        ],
      },
      'search, sync',
    ],
    ['a status', { id: 'd', type: 'status', status: { id: 's', name: 'Done', color: 'green' } }, 'Done'],
    [
      'a date range',
      { id: 'e', type: 'date', date: { start: '2025-01-06', end: '2025-01-10', time_zone: null } },
      '2025-01-06 → 2025-01-10',
    ],
    ['a checkbox', { id: 'f', type: 'checkbox', checkbox: false }, 'No'],
    [
      'people, named or not',
      {
        id: 'g',
        type: 'people',
        people: [
          { object: 'user', id: 'u1', name: 'Grace Hopper', avatar_url: null, type: 'person', person: {} },
          { object: 'user', id: 'u2' },
        ],
      },
      'Grace Hopper',
    ],
    ['an id', { id: 'h', type: 'unique_id', unique_id: { prefix: 'ENG', number: 42 } }, 'ENG-42'],
    ['a formula’s string', { id: 'i', type: 'formula', formula: { type: 'string', string: 'late' } }, 'late'],
    ['a formula’s boolean', { id: 'i', type: 'formula', formula: { type: 'boolean', boolean: true } }, 'Yes'],
    ['a relation (ids only)', { id: 'j', type: 'relation', relation: [{ id: 'p1' }] }, ''],
  ];

  it.each(cases)('reads %s', (_name, value, text) => {
    expect(propertyText(value)).toBe(text);
  });
});
