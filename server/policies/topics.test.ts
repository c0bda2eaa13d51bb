import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import {
  canDeleteTopic,
  canEditTopic,
  canViewTopic,
  isPubliclyReadable,
  publicTopicsAllowed,
  requirePublicTopicsAllowed,
  requireTopicDelete,
  requireTopicEdit,
  requireTopicView,
  type TopicFacts,
  type TopicRelation,
} from './topics';

const ORG = 'org-1';
const topic = (overrides: Partial<TopicFacts> = {}): TopicFacts => ({
  orgId: ORG,
  authorId: 'owner',
  visibility: 'INVITE_ONLY',
  isMultiplayer: false,
  ...overrides,
});
const viewer = (userId: string, overrides: Partial<TopicRelation> = {}): TopicRelation => ({
  userId,
  orgId: ORG,
  isMember: false,
  isManagedBotAdmin: false,
  isOrgAdmin: false,
  ...overrides,
});

const owner = viewer('owner');
const member = viewer('member', { isMember: true });
const colleague = viewer('colleague');
const botAdmin = viewer('bot-admin', { isManagedBotAdmin: true });
const outsider = viewer('owner', { orgId: 'org-2' });

function statusOf(check: () => void): number | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.statusCode;
    throw error;
  }
}

describe('viewing a topic', () => {
  it('an invite-only topic is its owner’s alone', () => {
    expect(canViewTopic(topic(), owner)).toBe(true);
    expect(canViewTopic(topic(), colleague)).toBe(false);
  });

  it('members see it only while it is shared', () => {
    expect(canViewTopic(topic(), member)).toBe(false);
    expect(canViewTopic(topic({ isMultiplayer: true }), member)).toBe(true);
  });

  it('anyone in the org sees a workspace-wide or public topic', () => {
    expect(canViewTopic(topic({ visibility: 'ORG' }), colleague)).toBe(true);
    expect(canViewTopic(topic({ visibility: 'PUBLIC' }), colleague)).toBe(true);
  });

  it('admins of the managed bot the topic is addressed to see it', () => {
    expect(canViewTopic(topic(), botAdmin)).toBe(true);
  });

  it('nobody of another org sees it, whatever its visibility', () => {
    for (const visibility of ['INVITE_ONLY', 'ORG', 'PUBLIC'] as const) {
      expect(canViewTopic(topic({ visibility }), outsider)).toBe(false);
    }
  });

  it('a topic whose author is gone has no owner', () => {
    expect(canViewTopic(topic({ authorId: null }), viewer('anyone'))).toBe(false);
  });
});

describe('editing and deleting a topic', () => {
  it('the owner edits and deletes', () => {
    expect(canEditTopic(topic(), owner)).toBe(true);
    expect(canDeleteTopic(topic(), owner)).toBe(true);
  });

  it('members of a shared topic edit but do not delete', () => {
    const shared = topic({ isMultiplayer: true });
    expect(canEditTopic(shared, member)).toBe(true);
    expect(canDeleteTopic(shared, member)).toBe(false);
  });

  it('colleagues reading a workspace-wide topic only read it', () => {
    const orgWide = topic({ visibility: 'ORG', isMultiplayer: true });
    expect(canEditTopic(orgWide, colleague)).toBe(false);
    expect(canDeleteTopic(orgWide, colleague)).toBe(false);
  });
});

describe('refusals', () => {
  it('a viewer who cannot see the topic gets 404 for every action, never 403', () => {
    expect(statusOf(() => requireTopicView(topic(), colleague))).toBe(404);
    expect(statusOf(() => requireTopicEdit(topic(), colleague))).toBe(404);
    expect(statusOf(() => requireTopicDelete(topic(), colleague))).toBe(404);
  });

  it('a viewer who can see the topic gets 403 for what they may not do', () => {
    const orgWide = topic({ visibility: 'ORG' });
    expect(statusOf(() => requireTopicView(orgWide, colleague))).toBeNull();
    expect(statusOf(() => requireTopicEdit(orgWide, colleague))).toBe(403);
    expect(statusOf(() => requireTopicDelete(topic({ isMultiplayer: true }), member))).toBe(403);
    expect(statusOf(() => requireTopicDelete(topic(), owner))).toBeNull();
  });
});

describe('public topics', () => {
  const on = { publicTopicsEnabled: true, flags: { publicTopics: true } };

  it('need both the org setting and the publicTopics flag', () => {
    expect(publicTopicsAllowed(on)).toBe(true);
    expect(publicTopicsAllowed({ publicTopicsEnabled: false, flags: { publicTopics: true } })).toBe(false);
    expect(publicTopicsAllowed({ publicTopicsEnabled: true, flags: {} })).toBe(false);
    expect(statusOf(() => requirePublicTopicsAllowed({ publicTopicsEnabled: true, flags: {} }))).toBe(403);
  });

  it('are readable by anyone only while PUBLIC and allowed', () => {
    expect(isPubliclyReadable({ visibility: 'PUBLIC' }, on)).toBe(true);
    expect(isPubliclyReadable({ visibility: 'ORG' }, on)).toBe(false);
    expect(isPubliclyReadable({ visibility: 'PUBLIC' }, { ...on, publicTopicsEnabled: false })).toBe(false);
  });
});
