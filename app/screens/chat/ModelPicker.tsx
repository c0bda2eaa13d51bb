import { Box, Button, Menu, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconCpu, IconStarFilled } from '@tabler/icons-react';
import type { LlmListResponse, LlmOption } from '../../../common/api/llms';
import { apps as appStrings } from '../../../common/strings';
import { groupModels } from '../../chat/model-groups';
import { chatCopy, modelReasonCopy } from '../../strings';
import classes from './chat.module.css';

/**
 * The LLM picker of the question box (spec apps-and-connections §9): the models this member can use now, those an
 * upgrade unlocks (they open the paywall), and, each under one line saying why, those the workspace turned off and
 * those this server has no API key for, as names rather than a wall of disabled entries.
 */
export function ModelPicker({
  llms,
  selected,
  onSelect,
  onPaywall,
}: {
  llms: LlmListResponse | undefined;
  selected: string | null;
  onSelect(id: string): void;
  onPaywall(option: LlmOption): void;
}) {
  const options = llms?.llms ?? [];
  const groups = groupModels(options);
  const current =
    groups.usable.find((option) => option.id === selected) ?? options.find((option) => option.default);
  const label = llms && !llms.generative ? appStrings.SELECT_LLM : (current?.name ?? appStrings.SELECT_LLM);
  return (
    <Menu position="top-end" shadow="md" withinPortal width={280}>
      <Menu.Target>
        <Tooltip label={chatCopy.EXTRACTIVE_MODEL} disabled={!llms || llms.generative} withinPortal>
          <Button
            variant="subtle"
            color="gray"
            size="compact-sm"
            fz="xs"
            fw={500}
            leftSection={<IconCpu size={14} />}
            rightSection={<IconChevronDown size={12} />}
            aria-label={appStrings.SELECT_LLM}
            data-testid="llm-picker"
          >
            {label}
          </Button>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown className={classes.modelMenu}>
        <Menu.Label>{appStrings.SELECT_LLM}</Menu.Label>
        {llms && !llms.generative && (
          <Text size="xs" c="dimmed" px="sm" pb={4}>
            {chatCopy.EXTRACTIVE_MODEL}
          </Text>
        )}
        {groups.usable.map((option) => (
          <Menu.Item
            key={option.id}
            onClick={() => onSelect(option.id)}
            rightSection={
              option.default ? (
                <Text size="xs" c="dimmed">
                  {modelReasonCopy.DEFAULT}
                </Text>
              ) : null
            }
            data-testid={`llm-${option.id}`}
            data-enabled
          >
            <Text size="sm" fw={option.id === current?.id ? 600 : 400}>
              {option.name}
            </Text>
          </Menu.Item>
        ))}
        {groups.upgrade.length > 0 && (
          <>
            <Menu.Divider />
            <Menu.Label>{modelReasonCopy.UPGRADE}</Menu.Label>
            {groups.upgrade.map((option) => (
              <Menu.Item
                key={option.id}
                onClick={() => onPaywall(option)}
                rightSection={<IconStarFilled size={12} color="var(--mantine-color-yellow-6)" />}
                data-testid={`llm-${option.id}`}
                data-enabled={false}
              >
                <Text size="sm" c="dimmed">
                  {option.name}
                </Text>
              </Menu.Item>
            ))}
          </>
        )}
        <UnusableGroup
          models={groups.turnedOff}
          title={modelReasonCopy.TURNED_OFF}
          hint={modelReasonCopy.TURNED_OFF_HINT}
          testId="llm-group-turned-off"
        />
        <UnusableGroup
          models={groups.needsKey}
          title={modelReasonCopy.NEEDS_KEY}
          hint={modelReasonCopy.NEEDS_KEY_HINT}
          testId="llm-group-needs-key"
        />
      </Menu.Dropdown>
    </Menu>
  );
}

function UnusableGroup({
  models,
  title,
  hint,
  testId,
}: {
  models: readonly LlmOption[];
  title: string;
  hint: string;
  testId: string;
}) {
  if (models.length === 0) return null;
  return (
    <>
      <Menu.Divider />
      <Box px="sm" py={6} data-testid={testId}>
        <Text size="xs" fw={600} c="dimmed">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {models.map((model) => model.name).join(', ')}
        </Text>
        <Text size="xs" c="dimmed" fs="italic" mt={2}>
          {hint}
        </Text>
      </Box>
    </>
  );
}
