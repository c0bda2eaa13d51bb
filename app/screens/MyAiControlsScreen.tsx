import { Loader, Stack, Title } from '@mantine/core';
import { useEffect } from 'react';
import { personalAiControlsSchema } from '../../common/api/ai-controls';
import { PERSONAL_BACKGROUND_MAX_CHARS } from '../../common/limits';
import { settings as settingsStrings } from '../../common/strings';
import { aiControlsKeys, usePersonalAiControls } from '../api/ai-controls';
import { api } from '../api/client';
import { TextSettingCard } from '../components/TextSettingCard';
import { notifyFailure } from '../components/toast';
import { aiControlsCopy as copy } from '../strings';

/** /my-ai-controls (spec §2.2): what the member tells the assistant about themselves, used in their own prompts. */
export function MyAiControlsScreen() {
  const personal = usePersonalAiControls();
  useEffect(() => {
    if (personal.isError) notifyFailure(settingsStrings.FAILED_TO_FETCH_AI_CONTROLS);
  }, [personal.isError]);
  return (
    <Stack p="xl" gap="lg" maw={720}>
      <Title order={1}>{copy.MY_TITLE}</Title>
      {personal.data ? (
        <TextSettingCard
          title={copy.PERSONAL_BACKGROUND}
          hint={copy.PERSONAL_BACKGROUND_HINT}
          placeholder={copy.PERSONAL_BACKGROUND_PLACEHOLDER}
          maxLength={PERSONAL_BACKGROUND_MAX_CHARS}
          value={personal.data.personal_background}
          save={(personal_background: string) =>
            api.post('ai_controls/personal', {
              body: { personal_background },
              schema: personalAiControlsSchema,
            })
          }
          cacheKey={aiControlsKeys.personal}
          success={copy.PERSONAL_SAVED}
          failure={copy.PERSONAL_SAVE_FAILED}
          testId="personal-background"
        />
      ) : (
        !personal.isError && <Loader size="sm" />
      )}
    </Stack>
  );
}
