// Feedback on an answer's references (spec asking-questions §4 Feedback): each reference can be rated +1 or -1, and
// rating one again with the same value clears it. Pure, so the toggling is tested without the modal.

export type ReferenceVote = 1 | -1;
export type ReferenceVotes = Readonly<Record<string, ReferenceVote>>;

export function toggleReferenceVote(
  votes: ReferenceVotes,
  referenceId: string,
  vote: ReferenceVote,
): ReferenceVotes {
  const next = { ...votes };
  if (next[referenceId] === vote) delete next[referenceId];
  else next[referenceId] = vote;
  return next;
}

/**
 * What a new rating sends: the votes as they now stand, plus 0 for each saved vote the member cleared, since the
 * server merges a rating's votes into the earlier ones and only a 0 removes one.
 */
export function referenceVotesUpdate(
  saved: ReferenceVotes,
  current: ReferenceVotes,
): Readonly<Record<string, ReferenceVote | 0>> {
  const update: Record<string, ReferenceVote | 0> = { ...current };
  for (const referenceId of Object.keys(saved)) {
    if (!(referenceId in current)) update[referenceId] = 0;
  }
  return update;
}
