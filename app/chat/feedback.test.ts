import { describe, expect, it } from 'vitest';
import { feedbackRequestSchema } from '../../common/api/feedback';
import { toggleReferenceVote } from './feedback';

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
});
