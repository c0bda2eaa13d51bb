// Answer feedback (spec shell-and-account §3 Answer feedback, asking-questions §4 Feedback): one record per member
// and answer. Each submission replaces its rating and comment and merges its reference votes; the removal call
// deletes it.
import { and, eq } from 'drizzle-orm';
import {
  feedbackMessages,
  isFeedbackRemoval,
  mergeReferenceVotes,
  messageIdOfResponse,
  REFERENCES_FEEDBACK_MAX,
  responseIdOf,
  type FeedbackRequest,
  type FeedbackResponse,
} from '../../common/api/feedback';
import type { Viewer } from '../context';
import { feedback, messages } from '../db/schema';
import type { Db, DbOrTx } from '../db/store';
import { badRequest, notFound } from '../errors';
import { canViewTopic } from '../policies/topics';
import { presentFeedback } from '../presenters/feedback';
import { loadTopic } from './access';

/** The answer response_id names, when it is one the viewer may see; 404 otherwise (as if it did not exist). */
async function answerFor(db: DbOrTx, viewer: Viewer, responseId: string) {
  const [answer] = await db
    .select({ id: messages.id, topicId: messages.topicId, replyToId: messages.replyToId })
    .from(messages)
    .where(
      and(
        eq(messages.orgId, viewer.orgId),
        eq(messages.id, messageIdOfResponse(responseId)),
        eq(messages.sender, 'ASSISTANT'),
      ),
    )
    .limit(1);
  const loaded = answer && (await loadTopic(db, viewer, answer.topicId));
  if (!answer || !loaded || !canViewTopic(loaded.topic, loaded.relation)) {
    throw notFound(feedbackMessages.ANSWER_NOT_FOUND);
  }
  return answer;
}

/** `POST /feedback`: records the viewer's feedback on an answer, or removes it (rating 0, no reference votes). */
export async function saveFeedback(
  db: Db,
  viewer: Viewer,
  request: FeedbackRequest,
): Promise<FeedbackResponse> {
  const answer = await answerFor(db, viewer, request.response_id);
  const responseId = responseIdOf(answer.id);
  const mine = and(
    eq(feedback.orgId, viewer.orgId),
    eq(feedback.userId, viewer.userId),
    eq(feedback.responseId, responseId),
  );
  if (isFeedbackRemoval(request)) {
    await db.delete(feedback).where(mine);
    return { feedback: null };
  }
  return db.transaction(async (tx) => {
    // locked, so two quick submissions (a thumb, then the modal) cannot both merge into the same earlier votes
    const [earlier] = await tx
      .select({ referencesFeedback: feedback.referencesFeedback })
      .from(feedback)
      .where(mine)
      .for('update');
    const referencesFeedback = mergeReferenceVotes(
      earlier?.referencesFeedback ?? {},
      request.references_feedback,
    );
    if (Object.keys(referencesFeedback).length > REFERENCES_FEEDBACK_MAX) {
      throw badRequest(feedbackMessages.TOO_MANY_REFERENCE_VOTES, 'VALIDATION_FAILED');
    }
    const values = {
      queryId: request.query_id || (answer.replyToId ? responseIdOf(answer.replyToId) : null),
      rating: request.rating,
      comment: request.comment || null,
      referencesFeedback,
      updatedAt: new Date(),
    };
    const [row] = await tx
      .insert(feedback)
      .values({ orgId: viewer.orgId, userId: viewer.userId, responseId, ...values })
      .onConflictDoUpdate({ target: [feedback.orgId, feedback.userId, feedback.responseId], set: values })
      .returning();
    if (!row) throw new Error('feedback upsert returned nothing');
    return { feedback: presentFeedback(row) };
  });
}
