import { describe, expect, it } from 'vitest';
import { feedbackRequestSchema } from '../../common/api/feedback';
import { referenceVotesUpdate, toggleReferenceVote } from './feedback';

describe('reference votes', () => {
  it('sets, switches and clears a vote on a second click of the same value', () => {
    const up = toggleReferenceVote({}, 'doc-1', 1);
    expect(up).toEqual({ 'doc-1': 1 });
    const down = toggleReferenceVote(up, 'doc-1', -1);
    expect(down).toEqual({ 'doc-1': -1 });
    expect(toggleReferenceVote(down, 'doc-1', -1)).toEqual({});
    expect(toggleReferenceVote(up, 'doc-2', -1)).toEqual({ 'doc-1': 1, 'doc-2': -1 });
    expect(up).toEqual({ 'doc-1': 1 });
  });

  it('makes a references_feedback the feedback call accepts', () => {
    const votes = toggleReferenceVote(toggleReferenceVote({}, 'a', 1), 'b', -1);
    const parsed = feedbackRequestSchema.safeParse({
      response_id: '0123456789abcdef0123456789abcdef',
      rating: 1,
      references_feedback: votes,
    });
    expect(parsed.success).toBe(true);
  });

  it('sends the votes as they stand and clears the saved ones the member took back', () => {
    const saved = { a: 1, b: -1 } as const;
    const current = toggleReferenceVote(toggleReferenceVote(saved, 'b', -1), 'c', 1);
    const update = referenceVotesUpdate(saved, current);
    expect(update).toEqual({ a: 1, b: 0, c: 1 });
    expect(
      feedbackRequestSchema.safeParse({
        response_id: '0123456789abcdef0123456789abcdef',
        rating: -1,
        comment: 'wrong sources',
        references_feedback: update,
      }).success,
    ).toBe(true);
    expect(referenceVotesUpdate({}, {})).toEqual({});
  });
});
