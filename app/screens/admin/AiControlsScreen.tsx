import { Alert, Badge, Group, Loader, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { aiControlsSchema } from '../../../common/api/ai-controls';
import { llmListResponseSchema, type LlmOption } from '../../../common/api/llms';
import { CUSTOM_INSTRUCTIONS_MAX_CHARS, DISCLAIMER_MAX_CHARS } from '../../../common/limits';
import type { PlanType } from '../../../common/plans';
import { Feature, requiredPlan } from '../../../common/plans';
import { settings as settingsStrings, shell } from '../../../common/strings';
import { aiControlsKeys, useAiControls } from '../../api/ai-controls';
import { api } from '../../api/client';
import { serverMessageOf } from '../../api/errors';
import { useOrg } from '../../api/org';
import { chatKeys, useLlms } from '../../chat/api';
import { TextSettingCard } from '../../components/TextSettingCard';
import { notifyFailure } from '../../components/toast';
import { aiControlsCopy as copy, modelReasonCopy, sidebarCopy } from '../../strings';

const planName = (plan: PlanType) => `${plan.charAt(0)}${plan.slice(1).toLowerCase()}`;

/**
 * /admin/ai-controls (spec shell-and-account §2.2, §7.3): the disclaimer shown under every answer, the custom
 * instructions given with every question, and which models the workspace offers. Each part shows only when the
 * org's plan includes it; the server refuses the rest anyway.
 */
export function AiControlsScreen() {
  const org = useOrg();
  const controls = useAiControls();
  useEffect(() => {
    if (controls.isError) notifyFailure(settingsStrings.FAILED_TO_FETCH_AI_CONTROLS);
  }, [controls.isError]);
  const features = org.data?.features;
  return (
    <Stack p="xl" gap="lg" maw={820}>
      <Title order={1}>{sidebarCopy.AI_CONTROLS}</Title>
      {!controls.data || !features ? (
        !controls.isError && <Loader size="sm" data-testid="ai-controls-loading" />
      ) : (
        <>
          <TextSettingCard
            title={copy.DISCLAIMER}
            hint={copy.DISCLAIMER_HINT}
            placeholder={copy.DISCLAIMER_PLACEHOLDER}
            maxLength={DISCLAIMER_MAX_CHARS}
            locked={features.customDisclaimer ? undefined : <PlanNote feature={Feature.customDisclaimer} />}
            value={controls.data.disclaimer}
            cacheKey={aiControlsKeys.org}
            save={(text) =>
              api.post('ai_controls/disclaimer', { body: { disclaimer: text }, schema: aiControlsSchema })
            }
            success={settingsStrings.UPDATED_DISCLAIMER}
            failure={settingsStrings.FAILED_TO_UPDATE_DISCLAIMER}
            testId="disclaimer"
          />
          <TextSettingCard
            title={copy.CUSTOM_INSTRUCTIONS}
            hint={copy.CUSTOM_INSTRUCTIONS_HINT}
            placeholder={copy.CUSTOM_INSTRUCTIONS_PLACEHOLDER}
            maxLength={CUSTOM_INSTRUCTIONS_MAX_CHARS}
            locked={
              features.orgWideInstructions ? undefined : <PlanNote feature={Feature.orgWideInstructions} />
            }
            value={controls.data.custom_instructions}
            cacheKey={aiControlsKeys.org}
            save={(text) =>
              api.post('ai_controls/custom_instructions', {
                body: { custom_instructions: text },
                schema: aiControlsSchema,
              })
            }
            success={settingsStrings.UPDATED_CUSTOM_INSTRUCTIONS}
            failure={settingsStrings.FAILED_TO_UPDATE_CUSTOM_INSTRUCTIONS}
            testId="custom-instructions"
          />
          <ModelsCard allowed={features.customLlmSelection} />
        </>
      )}
    </Stack>
  );
}

function PlanNote({ feature }: { feature: Feature }) {
  return (
    <Alert variant="light" color="indigo" data-testid={`plan-note-${feature}`}>
      {copy.planNeeded(planName(requiredPlan(feature)))}
    </Alert>
  );
}

/** Why a model cannot run here apart from the admin's own switch, or null. */
function blockerOf(option: LlmOption): string | null {
  if (option.reasons.includes('NOT_CONFIGURED')) return modelReasonCopy.NEEDS_KEY;
  if (option.reasons.includes('PLAN_REQUIRED')) {
    const plan = requiredPlan(option.enterpriseOnly ? Feature.enterpriseModels : Feature.aiModelSelection);
    return modelReasonCopy.needsPlan(planName(plan));
  }
  return null;
}

function ModelsCard({ allowed }: { allowed: boolean }) {
  const queryClient = useQueryClient();
  const llms = useLlms();
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const toggle = useMutation({
    mutationFn: (change: { model_id: string; enabled: boolean }) =>
      api.post('ai_controls/models', { body: change, schema: llmListResponseSchema }),
    onSuccess: (list) => queryClient.setQueryData(chatKeys.llms, list),
    onError: (error) => notifyFailure(serverMessageOf(error) ?? shell.DEFAULT_ERROR),
    onSettled: (_list, _error, change) => setPending(({ [change.model_id]: _done, ...rest }) => rest),
  });
  return (
    <Paper withBorder radius="lg" p="xl">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={4}>{copy.MODELS}</Title>
          <Text size="sm" c="dimmed">
            {copy.MODELS_HINT}
          </Text>
        </Stack>
        {!allowed && <PlanNote feature={Feature.customLlmSelection} />}
        {llms.data && (
          <Table verticalSpacing="xs" data-testid="ai-models">
            <Table.Tbody>
              {llms.data.llms.map((option) => {
                const on = pending[option.id] ?? !option.reasons.includes('DISABLED_FOR_ORG');
                const blocker = blockerOf(option);
                return (
                  <Table.Tr key={option.id} data-testid={`ai-model-${option.id}`}>
                    <Table.Td>
                      <Group gap="xs">
                        <Text size="sm">{option.name}</Text>
                        {option.default && (
                          <Badge size="xs" variant="light">
                            {modelReasonCopy.DEFAULT}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {blocker && (
                        <Text size="xs" c="dimmed" data-testid="ai-model-blocker">
                          {blocker}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td w={60}>
                      <Switch
                        aria-label={option.name}
                        checked={on}
                        disabled={!allowed || pending[option.id] !== undefined}
                        onChange={(event) => {
                          const enabled = event.currentTarget.checked;
                          setPending((current) => ({ ...current, [option.id]: enabled }));
                          toggle.mutate({ model_id: option.id, enabled });
                        }}
                        data-testid={`ai-model-switch-${option.id}`}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
