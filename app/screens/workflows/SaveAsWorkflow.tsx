import { ActionIcon, Tooltip } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import { useState } from 'react';
import { PROMPT_TITLE_MAX_CHARS } from '../../../common/api/prompts';
import { workflows as workflowStrings } from '../../../common/strings';
import { WorkflowDialog, type WorkflowDialogSubject } from './WorkflowDialog';

/** A first title for a question saved as a workflow: its first line, as much as a title holds. */
export function titleFromQuestion(question: string): string {
  const firstLine = question.trim().split('\n')[0] ?? '';
  return firstLine.slice(0, PROMPT_TITLE_MAX_CHARS).trim();
}

/** The 'Save as workflow' message action (spec asking-questions §2): a new workflow with the question as template. */
export function SaveAsWorkflowAction({ question }: { question: string }) {
  const [subject, setSubject] = useState<WorkflowDialogSubject | null>(null);
  return (
    <>
      <Tooltip label={workflowStrings.SAVE_AS_WORKFLOW} withinPortal>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          onClick={() =>
            setSubject({ kind: 'create', title: titleFromQuestion(question), template: question.trim() })
          }
          aria-label={workflowStrings.SAVE_AS_WORKFLOW}
          data-testid="save-as-workflow"
        >
          <IconBolt size={14} />
        </ActionIcon>
      </Tooltip>
      <WorkflowDialog subject={subject} onClose={() => setSubject(null)} />
    </>
  );
}
