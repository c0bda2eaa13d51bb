import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { FEEDBACK_COMMENT_MAX_CHARS } from '../../../common/api/feedback';
import { chatCopy } from '../../strings';

type Props = {
  rating: 1 | -1 | null;
  onClose(): void;
  /** Resolves when saved; rejects to keep the modal open. */
  onSubmit(comment: string): Promise<void>;
};

/** Feedback on a new rating (spec §4 Feedback): the comment is optional when the rating is positive. */
export function FeedbackModal({ rating, onClose, onSubmit }: Props) {
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const positive = rating === 1;
  const canSubmit = positive || comment.trim() !== '';
  const close = () => {
    setComment('');
    onClose();
  };
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit(comment.trim());
      setComment('');
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
