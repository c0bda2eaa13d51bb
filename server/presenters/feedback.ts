import { referenceVotesOf, type Feedback } from '../../common/api/feedback';
import type { Feedback as FeedbackRow } from '../db/schema';

/** The member's own feedback on one answer. */
export function presentFeedback(row: FeedbackRow): Feedback {
  return {
    query_id: row.queryId ?? null,
    response_id: row.responseId ?? '',
    rating: row.rating === 1 || row.rating === -1 ? row.rating : 0,
    comment: row.comment ?? null,
    references_feedback: referenceVotesOf(row.referencesFeedback),
    updated_at: row.updatedAt.toISOString(),
  };
}
