import { Button, Group, Modal, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  PROMPT_TEMPLATE_MAX_CHARS,
  PROMPT_TITLE_MAX_CHARS,
  promptTemplateSchema,
  promptTitleSchema,
  type Prompt,
  type PromptVisibility,
} from '../../../common/api/prompts';
import { MODELS } from '../../../common/models';
import { serverMessageOf } from '../../api/errors';
import { useSignedInUser } from '../../auth/session';
import { notifySuccess } from '../../components/toast';
import { workflowsCopy } from '../../strings';
import { refreshWorkflows, workflowsApi } from './api';

const MODEL_OPTIONS = MODELS.map((model) => ({ value: model.id, label: model.name }));

/** What the dialog starts from: a workflow to edit, or a new one's first text ('Save as workflow' from a message). */
export type WorkflowDialogSubject =
  { kind: 'edit'; workflow: Prompt } | { kind: 'create'; title: string; template: string };

/** The first message a field's schema gives, or null when it is valid. */
function fieldError(
  schema: typeof promptTitleSchema | typeof promptTemplateSchema,
  value: string,
  touched: boolean,
) {
  if (!touched) return null;
  const parsed = schema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

/**
 * Creates or edits a workflow. Only admins see the recommendation switch, and only for a workflow shared with the
 * organisation; the server enforces both.
 */
export function WorkflowDialog({
  subject,
  onClose,
}: {
  subject: WorkflowDialogSubject | null;
  onClose(): void;
}) {
  return (
    <Modal
      opened={subject !== null}
      onClose={onClose}
      title={subject?.kind === 'edit' ? workflowsCopy.EDIT_TITLE : workflowsCopy.CREATE_TITLE}
      centered
      size="lg"
    >
      {/* a fresh form per subject, so it starts from that subject's values */}
      {subject && (
        <WorkflowForm
          key={subject.kind === 'edit' ? subject.workflow.id : 'new'}
          subject={subject}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function WorkflowForm({ subject, onClose }: { subject: WorkflowDialogSubject; onClose(): void }) {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const editing = subject.kind === 'edit' ? subject.workflow : null;
  const [title, setTitle] = useState(editing?.title ?? (subject.kind === 'create' ? subject.title : ''));
  const [template, setTemplate] = useState(
    editing?.template ?? (subject.kind === 'create' ? subject.template : ''),
  );
  const [llm, setLlm] = useState<string | null>(editing?.preferred_llm ?? null);
  const [visibility, setVisibility] = useState<PromptVisibility>(editing?.visibility ?? 'PRIVATE');
  const [recommended, setRecommended] = useState(editing?.is_recommended ?? false);
  const [touched, setTouched] = useState({ title: title !== '', template: template !== '' });

  const save = useMutation({
    mutationFn: () => {
      const fields = { title, template, preferred_llm: llm, visibility };
      const withRecommendation = user.admin
        ? { ...fields, is_recommended: visibility === 'ORG' && recommended }
        : fields;
      return editing
        ? workflowsApi.update(editing.id, withRecommendation)
        : workflowsApi.create(withRecommendation);
    },
    onSuccess: () => {
      notifySuccess(workflowsCopy.SAVED);
      refreshWorkflows(queryClient);
      onClose();
    },
  });

  const titleError = fieldError(promptTitleSchema, title, touched.title);
  const templateError = fieldError(promptTemplateSchema, template, touched.template);
  const valid =
    promptTitleSchema.safeParse(title).success && promptTemplateSchema.safeParse(template).success;
  const failure = save.isError ? (serverMessageOf(save.error) ?? workflowsCopy.SAVE_FAILED) : null;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) save.mutate();
      }}
    >
      <Stack gap="md">
        <TextInput
          label={workflowsCopy.TITLE_LABEL}
          placeholder={workflowsCopy.TITLE_PLACEHOLDER}
          value={title}
          maxLength={PROMPT_TITLE_MAX_CHARS}
          error={titleError}
          data-autofocus
          onChange={(event) => {
            setTitle(event.currentTarget.value);
            setTouched((current) => ({ ...current, title: true }));
          }}
          data-testid="workflow-title"
        />
        <Textarea
          label={workflowsCopy.TEMPLATE_LABEL}
          description={workflowsCopy.TEMPLATE_DESCRIPTION}
          value={template}
          maxLength={PROMPT_TEMPLATE_MAX_CHARS}
          autosize
          minRows={3}
          maxRows={10}
          error={templateError}
          onChange={(event) => {
            setTemplate(event.currentTarget.value);
            setTouched((current) => ({ ...current, template: true }));
          }}
          data-testid="workflow-template"
        />
        <Select
          label={workflowsCopy.MODEL_LABEL}
          placeholder={workflowsCopy.MODEL_PLACEHOLDER}
          data={MODEL_OPTIONS}
          value={llm}
          onChange={setLlm}
          clearable
          searchable
          comboboxProps={{ withinPortal: true }}
          data-testid="workflow-model"
        />
        <Switch
          label={workflowsCopy.SHARE_LABEL}
          checked={visibility === 'ORG'}
          // who sees a workflow is its author's choice (the server refuses anyone else)
          disabled={editing !== null && !editing.is_mine}
          onChange={(event) => setVisibility(event.currentTarget.checked ? 'ORG' : 'PRIVATE')}
          data-testid="workflow-share"
        />
        {user.admin && visibility === 'ORG' && (
          <Switch
            label={workflowsCopy.RECOMMEND_LABEL}
            checked={recommended}
            onChange={(event) => setRecommended(event.currentTarget.checked)}
            data-testid="workflow-recommend"
          />
        )}
        {failure && (
          <Text size="sm" c="red.7" role="alert" data-testid="workflow-save-error">
            {failure}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {workflowsCopy.CANCEL}
          </Button>
          <Button type="submit" disabled={!valid} loading={save.isPending} data-testid="workflow-save">
            {workflowsCopy.SAVE}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
