import { useState } from 'react';
import { useNavigate } from 'react-router';
import { validation } from '../../../common/strings';
import { useOrg } from '../../api/org';
import { isFlagOn, useSignedInUser } from '../../auth/session';
import { NO_ATTACHMENTS } from '../../chat/attachments';
import { useLlms } from '../../chat/api';
import { chatQuestionPath, type AskChoices } from '../../chat/question-address';
import { useScopeOptions } from '../../chat/scope-options';
import { ALL_SOURCES_SCOPE, type ScopeState } from '../../chat/sources';
import { activeExchange, useExchanges } from '../../chat/store';
import { isBlank } from '../../chat/text';
import { QuestionInput } from '../../screens/chat/QuestionInput';
import { WorkflowChips } from '../../screens/workflows/WorkflowChips';
import { chatCopy } from '../../strings';
import { notifyFailure } from '../toast';

/**
 * The chat's question box on the homepage, with the recommended workflows' chips that fill it. Sending opens /chat, which asks the text (the q parameter) as a new topic
 * with the scope, model and Research chosen here; files and @mentions are attached on /chat itself.
 */
export function HomeQuestion() {
  const user = useSignedInUser();
  const org = useOrg();
  const llms = useLlms();
  const navigate = useNavigate();
  const busy = activeExchange(useExchanges()) !== undefined;
  const [text, setText] = useState('');
  const [scope, setScope] = useState<ScopeState>(ALL_SOURCES_SCOPE);
  const [llm, setLlm] = useState<string | null>(null);
  const [research, setResearch] = useState(false);
  const scopeOptions = useScopeOptions(user);

  const send = () => {
    if (isBlank(text) || busy) return;
    const choices: AskChoices = { scope, llm, research };
    navigate(chatQuestionPath(text.trim()), { state: choices });
  };

  return (
    <>
      <QuestionInput
        text={text}
        onTextChange={setText}
        onSend={send}
        onStop={() => undefined}
        generatingHere={false}
        busyElsewhere={busy}
        newTopic
        canStartNewTopic={false}
        onNewTopicChange={() => undefined}
        scope={scope}
        scopeOptions={scopeOptions}
        aiOnlyDisabled={isFlagOn(user, 'aiOnlyDisabled')}
        specifyEnabled={false}
        onScopeChange={(next) => {
          setScope(next);
          if (next.scope === 'AI_ONLY' && research) notifyFailure(validation.RESEARCH_NO_AI_ONLY);
        }}
        onSpecify={() => undefined}
        attachments={NO_ATTACHMENTS}
        onDetach={() => undefined}
        llms={llms.data}
        llm={llm}
        onLlmChange={setLlm}
        onPaywall={() => notifyFailure(chatCopy.UPGRADE_TEXT)}
        researchAvailable={isFlagOn(user, 'deepresearch') && org.data?.features.deepResearch === true}
        research={research}
        onResearchChange={(value) => {
          if (value && scope.scope === 'AI_ONLY') {
            notifyFailure(validation.RESEARCH_NO_AI_ONLY);
            return;
          }
          setResearch(value);
        }}
      />
      <WorkflowChips llms={llms.data} onTextChange={setText} onLlmChange={setLlm} />
    </>
  );
}
