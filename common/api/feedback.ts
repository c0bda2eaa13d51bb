// Answer feedback (spec shell-and-account §3 Answer feedback, §4.10; asking-questions §4 Feedback, §7): a thumb
// (rating 1 or -1), an optional comment, and a +1 / -1 per reference. One record per member and answer.
import { z } from 'zod';

export const FEEDBACK_COMMENT_MAX_CHARS = 5000;
export const REFERENCES_FEEDBACK_MAX = 200;

export const ratingSchema = z.union([z.literal(1), z.literal(-1), z.literal(0)]);
export type Rating = z.infer<typeof ratingSchema>;

/** The answer's message_id with its dashes removed, as the app sends it. */
export const RESPONSE_ID_PATTERN = /^[0-9a-f]{32}$/i;

/** A message id as feedback names it: lower case, dashes removed. */
export function responseIdOf(messageId: string): string {
  return messageId.replaceAll('-', '').toLowerCase();
}

/** The message id a response_id names (the inverse of responseIdOf). */
export function messageIdOfResponse(responseId: string): string {
  const hex = responseId.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const feedbackMessages = {
  ANSWER_NOT_FOUND: 'Answer not found.',
  TOO_MANY_REFERENCE_VOTES: `At most ${REFERENCES_FEEDBACK_MAX} reference ratings.`,
} as const;

/** A member's votes on an answer's references: reference id → +1 or -1. */
export const referenceVotesSchema = z.record(z.string(), z.union([z.literal(1), z.literal(-1)]));
export type ReferenceVotes = z.infer<typeof referenceVotesSchema>;

/**
 * `POST /feedback`: the member's feedback on one answer. The rating and comment replace what they sent before;
 * references_feedback is merged into their earlier reference votes (spec: clicking the same reference rating again
 * clears it, which the app sends as 0), so rating the answer again keeps the references already rated. The removal
 * call is rating 0 (or no rating) with references_feedback empty: it deletes the record (spec: clicking the same
 * thumb again removes the rating). An answer the member cannot see answers 404.
 */
export const feedbackRequestSchema = z
  .object({
    /** The question's id (the user message the answer replies to); kept as given. */
    query_id: z.string().trim().max(64).nullish(),
    response_id: z.string().regex(RESPONSE_ID_PATTERN),
    rating: ratingSchema.default(0),
    /** Optional with a positive rating, as with any other. */
    comment: z.string().trim().max(FEEDBACK_COMMENT_MAX_CHARS).nullish(),
    /** Reference id → +1 or -1, or 0 to clear an earlier vote; references left out keep their earlier vote. */
    references_feedback: z
      .record(z.string().min(1).max(200), ratingSchema)
      .refine((votes) => Object.keys(votes).length <= REFERENCES_FEEDBACK_MAX, {
        message: feedbackMessages.TOO_MANY_REFERENCE_VOTES,
      })
      .default({}),
  })
  .strict();
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;
export type FeedbackRequestInput = z.input<typeof feedbackRequestSchema>;

export const feedbackSchema = z.object({
  query_id: z.string().nullable(),
  response_id: z.string(),
  rating: ratingSchema,
  comment: z.string().nullable(),
  references_feedback: referenceVotesSchema,
  /** ISO-8601. */
  updated_at: z.string(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

/** The feedback as stored now; null after a removal. */
export const feedbackResponseSchema = z.object({ feedback: feedbackSchema.nullable() });
export type FeedbackResponse = z.infer<typeof feedbackResponseSchema>;

/** True when the request takes the member's feedback away rather than recording one. */
export function isFeedbackRemoval(request: Pick<FeedbackRequest, 'rating' | 'references_feedback'>): boolean {
  return request.rating === 0 && Object.keys(request.references_feedback).length === 0;
}

/** The stored votes that are still votes (+1 or -1); anything else a row holds is dropped. */
export function referenceVotesOf(stored: Readonly<Record<string, unknown>>): ReferenceVotes {
  const votes: ReferenceVotes = {};
  for (const [id, vote] of Object.entries(stored)) if (vote === 1 || vote === -1) votes[id] = vote;
  return votes;
}

/** The earlier votes with the new ones laid over them; a 0 clears that reference's vote. */
export function mergeReferenceVotes(
  earlier: Readonly<Record<string, unknown>>,
  update: Readonly<Record<string, Rating>>,
): ReferenceVotes {
  const merged = referenceVotesOf(earlier);
  for (const [id, vote] of Object.entries(update)) {
    if (vote === 0) delete merged[id];
    else merged[id] = vote;
  }
  return merged;
}
