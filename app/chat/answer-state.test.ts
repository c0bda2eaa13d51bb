import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../common/api/chat';
import { chat as chatStrings } from '../../common/strings';
import {
  applyServerMessage,
  awaitingReplay,
  newExchange,
  nextProgress,
  stoppedExchange,
  type Exchange,
} from './answer-state';

function fresh(deepresearch = false): Exchange {
  return newExchange({
    key: 'q-1',
    answerKey: 'q-1:answer',
    query: 'How long is leave?',
    conversationId: null,
    topicTitle: '',
    author: { email: 'ann@acme.test', display_name: 'Ann', icon: null },
    deepresearch,
    now: new Date('2025-01-01T10:00:00Z'),
  });
}

function fold(exchange: Exchange, messages: ServerMessage[]): Exchange {
  return messages.reduce(applyServerMessage, exchange);
}

const stage = (value: 'GATHERING_DATA' | 'BUILDING_PROMPT' | 'STREAMING_ANSWER'): ServerMessage => ({
  type: 'SET_STAGE',
  stage: value,
  label: null,
});

describe('the progress rule', () => {
  it('starts at 5, jumps to 50, then climbs by 15 up to 90', () => {
    const seen = [5];
    for (let i = 0; i < 5; i++) seen.push(nextProgress(seen.at(-1)!));
    expect(seen).toEqual([5, 50, 65, 80, 90, 90]);
  });

  it('moves on stages and skill events, and follows the server in research', () => {
    const after = fold(fresh(), [
      stage('GATHERING_DATA'),
      { type: 'SKILL_RETRIEVED', appName: 'notion', numDocs: 2 },
    ]);
    expect(after.progress).toBe(65);
    expect(after.stageLabel).toBe(chatStrings.GATHERING_DATA);
    const research = fold(fresh(true), [
      { type: 'SET_STAGE', stage: 'MULTI_STEP_THOUGHT', label: 'x', progressBar: 37 },
    ]);
    expect(research.progress).toBe(37);
    expect(research.stageLabel).toBe(chatStrings.RESEARCHING);
  });
});

describe('streaming', () => {
  it('ignores chunks until the answer starts streaming', () => {
    const after = fold(fresh(), [
      { type: 'CHUNK', text: 'early ' },
      stage('STREAMING_ANSWER'),
      { type: 'CHUNK', text: 'Sixteen ' },
      { type: 'CHUNK', text: 'weeks [1].' },
    ]);
    expect(after.answer.messageText).toBe('Sixteen weeks [1].');
    expect(after.stageLabel).toBe(chatStrings.ANSWERING);
    expect(after.answer.status).toBe('PENDING');
  });

  it('takes the rows, the topic and the final answer from the server', () => {
    const after = fold(fresh(), [
      { type: 'QUERY_ACCEPTED', conversation_id: 'c-1', message_id: 'q-1', isNewTopic: true },
      {
        type: 'ROW_ID',
        conversation_id: 'c-1',
        row_id: 8,
        message_id: 'a-1',
        query_row_id: 7,
        query_message_id: 'q-1',
      },
      stage('STREAMING_ANSWER'),
      { type: 'CHUNK', text: 'Sixteen' },
      { type: 'TOPIC_TITLE', conversation_id: 'c-1', topic_title: 'Leave' },
      {
        type: 'ANSWER_COMPLETE',
        conversation_id: 'c-1',
        message_id: 'a-1',
        row_id: 8,
        status: 'SUCCESS',
        messageText: 'Sixteen weeks.',
        references: [],
        allReferencesSummary: { app_references_count: [], app_names: [] },
        relatedSearches: ['More?'],
        skillRetrieved: [],
        topic_title: 'Leave',
        llm: 'extractive',
        deepresearch: false,
      },
      { type: 'CHUNK', text: 'ignored after the end' },
    ]);
    expect(after.accepted).toBe(true);
    expect(after.answer).toMatchObject({
      status: 'SUCCESS',
      message_id: 'a-1',
      row_id: 8,
      messageText: 'Sixteen weeks.',
      conversation_id: 'c-1',
      topic_title: 'Leave',
      reply_to_id: 'q-1',
      relatedSearches: ['More?'],
    });
    expect(after.question.conversation_id).toBe('c-1');
  });

  it('ends as failed on a generation error or the research rate limit', () => {
    const accepted = fold(fresh(), [
      { type: 'QUERY_ACCEPTED', conversation_id: 'c-1', message_id: 'q-1', isNewTopic: true },
    ]);
    const failed = applyServerMessage(accepted, {
      type: 'ERROR',
      code: 'GENERATION_FAILED',
      message: 'boom',
    });
    expect(failed.answer).toMatchObject({ status: 'FAILED', messageText: chatStrings.GENERATION_FAILED });
    const limited = applyServerMessage(accepted, {
      type: 'RATE_LIMIT_REACHED',
      limit: 10,
      reset_at: '2025-01-01T11:00:00Z',
    });
    expect(limited.answer.status).toBe('FAILED');
    expect(limited.answer.messageText).toMatch(/^You've hit the limit of 10 Research requests/);
    // A refusal before acceptance is not an answer at all.
    expect(applyServerMessage(fresh(), { type: 'ERROR', code: 'BUSY', message: 'wait' }).answer.status).toBe(
      'PENDING',
    );
  });

  it('replays the whole text after a reconnect', () => {
    const after = fold(fresh(), [
      stage('STREAMING_ANSWER'),
      { type: 'CHUNK', text: 'Sixteen' },
      { type: 'SET_STAGE', stage: 'RECONNECTING', label: null },
      { type: 'CHUNK', text: 'Sixteen weeks' },
    ]);
    expect(after.answer.messageText).toBe('Sixteen weeks');
  });
});

describe('stop', () => {
  it('keeps a streamed partial answer as cancelled', () => {
    const streaming = fold(fresh(), [stage('STREAMING_ANSWER'), { type: 'CHUNK', text: 'Sixteen' }]);
    expect(stoppedExchange(streaming).answer).toMatchObject({ status: 'CANCELLED', messageText: 'Sixteen' });
  });

  it('shows the static text when nothing was streamed', () => {
    expect(stoppedExchange(fresh()).answer).toMatchObject({
      status: 'CANCELLED',
      messageText: chatStrings.STOPPED,
      extraData: { staticAnswerType: 'stopped' },
    });
  });
});

describe('web results', () => {
  it('collects the pages read, each once, and the summary', () => {
    const after = fold(fresh(), [
      stage('GATHERING_DATA'),
      {
        type: 'WEB_VIEW_URLS',
        urls: [
          { url: 'https://a.example/1', title: 'One' },
          { url: 'https://b.example/2', title: 'Two' },
        ],
      },
      {
        type: 'WEB_VIEW_URLS',
        urls: [
          { url: 'https://a.example/1', title: 'One' },
          { url: 'https://c.example/3', title: 'Three' },
          { url: 'https://c.example/3', title: 'Three' },
        ],
      },
      { type: 'ALL_WEB_VIEW_URLS_SUMMARY', count: 3, domains: ['a.example', 'b.example', 'c.example'] },
    ]);
    expect(after.webPages.map((page) => page.title)).toEqual(['One', 'Two', 'Three']);
    expect(after.webSummary).toEqual({ count: 3, domains: ['a.example', 'b.example', 'c.example'] });
    expect(fresh().webPages).toEqual([]);
    expect(fresh().webSummary).toBeNull();
  });
});

describe('following again', () => {
  it('does not count a repeated stage as progress', () => {
    const after = fold(fresh(), [stage('GATHERING_DATA'), stage('GATHERING_DATA'), stage('GATHERING_DATA')]);
    expect(after.progress).toBe(50);
    expect(fold(after, [stage('BUILDING_PROMPT')]).progress).toBe(65);
  });

  it('shows the replayed text once after a RECONNECT to a live answer', () => {
    const streaming = fold(fresh(), [stage('STREAMING_ANSWER'), { type: 'CHUNK', text: 'Sixteen ' }]);
    const replayed = fold(awaitingReplay(streaming), [
      stage('STREAMING_ANSWER'),
      { type: 'CHUNK', text: 'Sixteen weeks' },
      { type: 'CHUNK', text: ' [1].' },
    ]);
    expect(replayed.answer.messageText).toBe('Sixteen weeks [1].');
    expect(replayed.progress).toBe(streaming.progress);
  });

  it('leaves a finished answer alone', () => {
    const stopped = stoppedExchange(fresh());
    expect(awaitingReplay(stopped)).toBe(stopped);
  });
});
