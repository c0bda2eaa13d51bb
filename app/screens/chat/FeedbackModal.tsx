import { ActionIcon, Button, Group, Modal, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { IconThumbDown, IconThumbDownFilled, IconThumbUp, IconThumbUpFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { FEEDBACK_COMMENT_MAX_CHARS } from '../../../common/api/feedback';
import type { Reference } from '../../../common/api/messages';
import { REFERENCE_TITLE_MAX_CHARS } from '../../../common/limits';
import { toggleReferenceVote, type ReferenceVote, type ReferenceVotes } from '../../chat/feedback';
import { truncate } from '../../chat/text';
import { chatCopy } from '../../strings';

type Props = {
  rating: 1 | -1 | null;
  references: readonly Reference[];
  /** The member's votes saved with an earlier rating: the modal starts from them (mount it anew per opening). */
  savedVotes: ReferenceVotes;
  onClose(): void;
  /** Resolves when saved; rejects to keep the modal open. */
  onSubmit(comment: string, referenceVotes: ReferenceVotes): Promise<void>;
};

function ReferenceVoteRow({
  reference,
  n,
  vote,
  onVote,
}: {
  reference: Reference;
  n: number;
  vote: ReferenceVote | undefined;
  onVote(vote: ReferenceVote): void;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid="feedback-reference">
      <Text size="sm" title={reference.title} truncate>
        {n}. {truncate(reference.title, REFERENCE_TITLE_MAX_CHARS)}
      </Text>
      <Group gap={2} wrap="nowrap">
        <ActionIcon
          variant="subtle"
          color={vote === 1 ? 'indigo' : 'gray'}
          onClick={() => onVote(1)}
          aria-label={chatCopy.referenceUseful(reference.title)}
          aria-pressed={vote === 1}
          data-testid="feedback-reference-up"
        >
          {vote === 1 ? <IconThumbUpFilled size={14} /> : <IconThumbUp size={14} />}
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color={vote === -1 ? 'red' : 'gray'}
          onClick={() => onVote(-1)}
          aria-label={chatCopy.referenceNotUseful(reference.title)}
          aria-pressed={vote === -1}
          data-testid="feedback-reference-down"
        >
          {vote === -1 ? <IconThumbDownFilled size={14} /> : <IconThumbDown size={14} />}
        </ActionIcon>
      </Group>
    </Group>
  );
}

/**
 * Feedback on a new rating (spec §4 Feedback): the comment is optional when the rating is positive; each reference
 * can be rated too.
 */
export function FeedbackModal({ rating, references, savedVotes, onClose, onSubmit }: Props) {
  const [comment, setComment] = useState('');
  const [votes, setVotes] = useState<ReferenceVotes>(savedVotes);
  const [busy, setBusy] = useState(false);
  const positive = rating === 1;
  const canSubmit = positive || comment.trim() !== '';
  const reset = () => setComment('');
  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit(comment.trim(), votes);
      reset();
    } catch {
      // The caller has said what went wrong; the comment stays for another try.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={rating !== null} onClose={close} title={chatCopy.FEEDBACK_TITLE} centered>
      <Stack>
        <Textarea
          label={positive ? chatCopy.FEEDBACK_POSITIVE : chatCopy.FEEDBACK_NEGATIVE}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={8}
          maxLength={FEEDBACK_COMMENT_MAX_CHARS}
          data-autofocus
          data-testid="feedback-comment"
        />
        {references.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {chatCopy.FEEDBACK_REFERENCES}
            </Text>
            <ScrollArea.Autosize mah={240} type="auto">
              <Stack gap={2}>
                {references.map((reference, index) => (
                  <ReferenceVoteRow
                    key={`${reference.id}-${index}`}
                    reference={reference}
                    n={index + 1}
                    vote={votes[reference.id]}
                    onVote={(vote) => setVotes((current) => toggleReferenceVote(current, reference.id, vote))}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {chatCopy.CANCEL}
          </Button>
          <Button
            onClick={() => void submit()}
            loading={busy}
            disabled={!canSubmit}
            data-testid="feedback-submit"
          >
            {chatCopy.FEEDBACK_SUBMIT}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
