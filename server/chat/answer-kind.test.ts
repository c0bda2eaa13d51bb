import { expect, it } from 'vitest';
import { asksForQuantity, mentionsQuantity, statesQuantity } from './answer-kind';

it('hears a question asking for an amount, a duration, a date or a limit, and not one asking how or who', () => {
  for (const question of [
    'How much can I spend on meals each day?',
    'How long is parental leave?',
    'By when must I submit my new address?',
    'Is there a ceiling on hotel costs?',
  ])
    expect(asksForQuantity(question)).toBe(true);
  for (const question of ['How do I choose a hotel?', 'Who approves a transfer?'])
    expect(asksForQuantity(question)).toBe(false);
});

it('reads a figure with its unit, a date or a rate as a quantity, and digits inside names as none', () => {
  for (const text of [
    'up to $80 for all three meals',
    'a 300 USD maximum',
    'within seven calendar days of the move',
    'a 16-week leave',
    'paid on the 15th and the last day',
    'covered until the end of the month',
    'starting December 23',
    '25% vests after a year',
    'one allowance per night',
  ])
    expect(statesQuantity(text)).toBe(true);
  for (const text of [
    'Follow the COVID-19 protocol.',
    'SOC 2 is essential for us.',
    'We use 1Password.',
    'Version 4.2 is out.',
  ])
    expect(statesQuantity(text)).toBe(false);
});

it('counts a bare figure in a sentence, but not a time of day or a name with digits', () => {
  for (const text of ['Use 15 characters or more.', 'Paid on the 15th.', 'Starts in December.'])
    expect(mentionsQuantity(text)).toBe(true);
  for (const text of ['9am: Breakfast with the team', 'Follow the COVID-19 protocol.', 'We use 1Password.'])
    expect(mentionsQuantity(text)).toBe(false);
});
