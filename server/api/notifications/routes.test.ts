import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  notificationMessages,
  type MarkNotificationsResponse,
  type NotificationPreferences,
  type NotificationsResponse,
} from '../../../common/api/notifications';
import { featureDisabledMessage } from '../../../common/flags';
import { topics as topicStrings } from '../../../common/strings';
import { notifications, topicMembers, topics, type Org, type Topic, type User } from '../../db/schema';
import { createTopic } from '../../testing/chat-fixtures';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';
import { startSmtpInbox, type SmtpInbox } from '../../testing/smtp-inbox';

const PUBLIC_URL = 'https://scout.notify.test';

let server: TestServer;
let smtp: SmtpInbox;
let acme: Org;
let quiet: Org; // shared topics on, notifications off
let owen: User; // owns the topics
let mia: User;
let cora: User;
let olga: User; // another org
let quinn: User; // of the quiet org
const tokens = new Map<User, string>();

beforeAll(async () => {
  smtp = await startSmtpInbox();
  server = await createTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
  const { db } = server.store;
  acme = await createOrg(db, {
    domain: 'acme.test',
    flags: { notifications: true, multiplayerEnabled: true },
  });
  quiet = await createOrg(db, { domain: 'quiet.test', flags: { multiplayerEnabled: true } });
  const other = await createOrg(db, {
    domain: 'other.test',
    flags: { notifications: true, multiplayerEnabled: true },
  });
  owen = await createUser(db, acme, { email: 'owen@acme.test', firstName: 'Owen', lastName: 'Owner' });
  mia = await createUser(db, acme, { email: 'mia@acme.test', firstName: 'Mia' });
  cora = await createUser(db, acme, { email: 'cora@acme.test', firstName: 'Cora' });
  olga = await createUser(db, other, { email: 'olga@other.test', firstName: 'Olga' });
  quinn = await createUser(db, quiet, { email: 'quinn@quiet.test', firstName: 'Quinn' });
  await createUser(db, quiet, { email: 'quill@quiet.test', firstName: 'Quill' });
  for (const user of [owen, mia, cora, olga, quinn])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});
afterEach(async () => {
  await server.store.db.delete(notifications);
  smtp.messages.length = 0;
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
const call = (user: User, method: Method, url: string, payload?: object) =>
  server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${tokens.get(user)}` },
    ...(payload ? { payload } : {}),
  });

async function inbox(user: User, query = ''): Promise<NotificationsResponse> {
  const res = await call(user, 'GET', `/notifications${query}`);
  expect(res.statusCode).toBe(200);
  return res.json<NotificationsResponse>();
}

const sharedTopic = (title: string, members: User[] = [mia]) =>
  createTopic(server.store.db, owen, { topicTitle: title, isMultiplayer: true, members });

async function addMember(topic: Topic, user: User): Promise<void> {
  const res = await call(owen, 'POST', '/topics/topic/member', {
    conversation_id: topic.id,
    user_email: user.email,
  });
  expect(res.statusCode).toBe(200);
}

async function setPreferences(user: User, change: (prefs: NotificationPreferences) => void) {
  const prefs = (await call(user, 'GET', '/notifications/preferences')).json<NotificationPreferences>();
  change(prefs);
  const res = await call(user, 'PUT', '/notifications/preferences', prefs);
  expect(res.statusCode).toBe(200);
  return res.json<NotificationPreferences>();
}

const ALL_ON = {
  tagged_users: 'True',
  bot_admins: 'True',
  new_msgs: 'True',
  user_added_to_topic: 'True',
  research: 'True',
};
const ALL_OFF = {
  tagged_users: 'False',
  bot_admins: 'False',
  new_msgs: 'False',
  user_added_to_topic: 'False',
  research: 'False',
};

describe('sending notifications', () => {
  it('tells a member added to a topic, once, and nobody else', async () => {
    const topic = await createTopic(server.store.db, owen, { topicTitle: 'Q3 [plan] *draft*' });
    await addMember(topic, cora);
    await addMember(topic, cora);

    const { items, meta } = await inbox(cora);
    expect(meta.unread_count).toBe(1);
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item).toMatchObject({
      read: false,
      read_at: null,
      actors: [{ name: 'Owen Owner', avatar: null }],
      data: {
        type: 'notify-user-added-to-topic',
        topic_id: topic.id,
        topic_title: 'Q3 [plan] *draft*',
        message_id: null,
        success: null,
      },
      desktop: false,
    });
    // the member's own text is escaped, so it reads as written and never as markup
    expect(item?.markdown).toBe('**Owen Owner** added you to **Q3 \\[plan\\] \\*draft\\***');
    expect((await inbox(owen)).items).toEqual([]);
    expect((await inbox(mia)).items).toEqual([]);
  });

  it('tells those tagged in a message, and the other members of the shared topic that it was written', async () => {
    const topic = await sharedTopic('Launch');
    const res = await call(owen, 'POST', '/messages/create', {
      conversation_id: topic.id,
      message: 'Can you check the launch checklist?',
      tagged_emails: [cora.email],
    });
    expect(res.statusCode).toBe(200);
    const messageId = res.json<{ message: { message_id: string } }>().message.message_id;

    const [tagged] = (await inbox(cora)).items;
    expect(tagged?.data).toMatchObject({
      type: 'notify-tagged-users',
      topic_id: topic.id,
      message_id: messageId,
      message_slice: 'Can you check the launch checklist?',
    });
    expect(tagged?.markdown).toBe('**Owen Owner** tagged you in **Launch**');
    const miaItems = (await inbox(mia)).items;
    expect(miaItems.map((item) => item.data.type)).toEqual(['notify-new-msgs-in-shared-topics']);
    expect(miaItems[0]?.markdown).toBe('**Owen Owner** wrote in **Launch**');
    // the author hears nothing of their own message
    expect((await inbox(owen)).items).toEqual([]);

    // a member's reply tells the owner and the others, not its author
    await call(mia, 'POST', '/messages/create', { conversation_id: topic.id, message: 'Done.' });
    expect((await inbox(owen)).items.map((item) => item.data.type)).toEqual([
      'notify-new-msgs-in-shared-topics',
    ]);
    expect((await inbox(cora)).items.map((item) => item.data.type)).toEqual([
      'notify-new-msgs-in-shared-topics',
      'notify-tagged-users',
    ]);
    expect((await inbox(mia)).items).toHaveLength(1);
  });

  it('never tells someone who may not view the topic', async () => {
    const privateTopic = await createTopic(server.store.db, owen, { topicTitle: 'Salaries' });
    await server.ctx.notifier.notify({
      type: 'notify-new-msgs-in-shared-topics',
      orgId: acme.id,
      topicId: privateTopic.id,
      actorId: owen.id,
      recipientIds: [cora.id, olga.id],
      messageText: 'secret',
    });
    // nor someone of another org, even named by id on a topic they could never see
    expect((await inbox(cora)).items).toEqual([]);
    expect((await inbox(olga)).items).toEqual([]);
    expect(await server.store.db.select().from(notifications)).toEqual([]);
  });

  it('tells the asker when research is ready or could not be finished', async () => {
    const topic = await createTopic(server.store.db, mia, { topicTitle: 'Market size' });
    for (const success of [false, true]) {
      await server.ctx.notifier.notify({
        type: 'notify-research',
        orgId: acme.id,
        topicId: topic.id,
        messageId: null,
        recipientIds: [mia.id],
        success,
      });
    }
    const { items } = await inbox(mia);
    expect(items.map((item) => [item.data.success, item.markdown, item.actors])).toEqual([
      [true, topicStrings.researchReady('**Market size**'), []],
      [false, topicStrings.researchFailed('**Market size**'), []],
    ]);
  });

  it('sends nothing in a workspace without the inbox', async () => {
    const topic = await createTopic(server.store.db, quinn, { topicTitle: 'Quiet' });
    const res = await call(quinn, 'POST', '/topics/topic/member', {
      conversation_id: topic.id,
      user_email: 'quill@quiet.test',
    });
    expect(res.statusCode).toBe(200);
    expect(
      await server.store.db.select().from(notifications).where(eq(notifications.orgId, quiet.id)),
    ).toEqual([]);
  });
});

describe('the inbox', () => {
  async function fiveItems(): Promise<Topic[]> {
    const made: Topic[] = [];
    for (let i = 1; i <= 5; i++) {
      const topic = await createTopic(server.store.db, owen, { topicTitle: `Topic ${i}` });
      await addMember(topic, mia);
      made.push(topic);
    }
    return made;
  }

  it('lists newest first, a page at a time, filtered by All, Unread and Read, with the unread count', async () => {
    const made = await fiveItems();
    const first = await inbox(mia, '?page_size=2');
    expect(first.items.map((item) => item.data.topic_title)).toEqual(['Topic 5', 'Topic 4']);
    expect(first).toMatchObject({ page: 1, has_more: true, meta: { unread_count: 5 } });
    const last = await inbox(mia, '?page_size=2&page=3');
    expect(last.items.map((item) => item.data.topic_title)).toEqual(['Topic 1']);
    expect(last.has_more).toBe(false);

    const read = await call(mia, 'PATCH', `/notifications/${first.items[1]!.id}/read`);
    expect(read.json<MarkNotificationsResponse>()).toEqual({ meta: { unread_count: 4 } });
    const readOnes = await inbox(mia, '?filter=read');
    expect(readOnes.items.map((item) => item.data.topic_title)).toEqual(['Topic 4']);
    expect(readOnes.items[0]?.read).toBe(true);
    expect(readOnes.items[0]?.read_at).not.toBeNull();
    expect((await inbox(mia, '?filter=unread')).items.map((item) => item.data.topic_title)).toEqual([
      'Topic 5',
      'Topic 3',
      'Topic 2',
      'Topic 1',
    ]);

    // viewing a topic reads its notifications
    const viewed = await call(mia, 'PATCH', `/notifications/topic/${made[0]!.id}/read`);
    expect(viewed.json<MarkNotificationsResponse>()).toEqual({ meta: { unread_count: 3 } });

    const all = await call(mia, 'PATCH', '/notifications/mark_all_as_read');
    expect(all.json<MarkNotificationsResponse>()).toEqual({ meta: { unread_count: 0 } });
    expect((await inbox(mia, '?filter=unread')).items).toEqual([]);
    expect((await inbox(mia, '?filter=read')).items).toHaveLength(5);
  });

  it('drops, unseen, what is about a topic its reader may no longer open', async () => {
    const [kept, lost, deleted] = await fiveItems();
    await server.store.db
      .delete(topicMembers)
      .where(and(eq(topicMembers.topicId, lost!.id), eq(topicMembers.userId, mia.id)));
    await server.store.db.delete(topics).where(eq(topics.id, deleted!.id));
    const { items, meta } = await inbox(mia);
    expect(items.map((item) => item.data.topic_title)).toEqual(['Topic 5', 'Topic 4', kept!.topicTitle]);
    expect(meta.unread_count).toBe(3);
    expect(
      await server.store.db.select().from(notifications).where(eq(notifications.userId, mia.id)),
    ).toHaveLength(3);
  });

  it("never shows or marks another member's notifications", async () => {
    await fiveItems();
    const [item] = (await inbox(mia)).items;
    expect((await inbox(cora)).items).toEqual([]);
    const res = await call(cora, 'PATCH', `/notifications/${item!.id}/read`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: notificationMessages.NOT_FOUND });
    await call(cora, 'PATCH', '/notifications/mark_all_as_read');
    await call(olga, 'PATCH', '/notifications/mark_all_as_read');
    expect((await inbox(mia)).meta.unread_count).toBe(5);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    await fiveItems();
    for (const url of [
      '/notifications?filter=starred',
      '/notifications?page=0',
      '/notifications?page_size=51',
    ]) {
      const res = await call(mia, 'GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ code: string }>().code).toBeTypeOf('string');
    }
    expect((await call(mia, 'PATCH', '/notifications/not-an-id/read')).statusCode).toBe(400);
    const before = (await call(mia, 'GET', '/notifications/preferences')).json<NotificationPreferences>();
    for (const body of [
      { ...before, in_app: { ...before.in_app, research: true } },
      { ...before, email: { ...before.email, research: 'yes' } },
      { ...before, desktop: undefined },
      { ...before, extra: 'True' },
    ]) {
      expect((await call(mia, 'PUT', '/notifications/preferences', body)).statusCode).toBe(400);
    }
    expect((await call(mia, 'GET', '/notifications/preferences')).json()).toEqual(before);
    expect((await inbox(mia)).meta.unread_count).toBe(5);
  });

  it('is refused, clearly, while the workspace has notifications or shared topics off', async () => {
    for (const [method, url] of [
      ['GET', '/notifications'],
      ['PATCH', '/notifications/mark_all_as_read'],
      ['PATCH', `/notifications/${owen.id}/read`],
      ['GET', '/notifications/preferences'],
      ['PUT', '/notifications/preferences'],
    ] as const) {
      const res = await call(quinn, method, url, method === 'PUT' ? {} : undefined);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({
        code: 'FEATURE_DISABLED',
        message: featureDisabledMessage('notifications'),
      });
    }
  });
});

describe('notification preferences', () => {
  it('default to in-app on and email and desktop off, and save every flag', async () => {
    const prefs = (await call(cora, 'GET', '/notifications/preferences')).json<NotificationPreferences>();
    expect(prefs).toEqual({
      in_app: ALL_ON,
      email: ALL_OFF,
      desktop: ALL_OFF,
      desktop_push_disabled: 'False',
    });
    const saved = await setPreferences(cora, (p) => {
      p.email.research = 'True';
      p.in_app.new_msgs = 'False';
      p.desktop_push_disabled = 'True';
    });
    expect(saved).toEqual({
      in_app: { ...ALL_ON, new_msgs: 'False' },
      email: { ...ALL_OFF, research: 'True' },
      desktop: ALL_OFF,
      desktop_push_disabled: 'True',
    });
    expect((await call(cora, 'GET', '/notifications/preferences')).json()).toEqual(saved);
    await setPreferences(cora, (p) =>
      Object.assign(p, { in_app: ALL_ON, email: ALL_OFF, desktop_push_disabled: 'False' }),
    );
  });

  it('are honoured when sending: in-app off writes no row, email on sends a mail to the real SMTP server', async () => {
    await setPreferences(mia, (p) => {
      p.in_app.user_added_to_topic = 'False';
      p.email.user_added_to_topic = 'True';
    });
    const topic = await createTopic(server.store.db, owen, { topicTitle: 'Budget review' });
    await addMember(topic, mia);
    expect(
      await server.store.db.select().from(notifications).where(eq(notifications.userId, mia.id)),
    ).toEqual([]);
    // the call answers once the mail is handed over
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail?.to).toEqual([mia.email]);
    expect(mail?.subject).toBe('Scout: Owen Owner added you to Budget review');
    expect(mail?.text).toContain(`${PUBLIC_URL}/topic/${topic.id}`);
    expect(mail?.text).toContain(`${PUBLIC_URL}/notification-preferences`);

    // email off (the default): nothing is mailed, and the row is back with in-app on
    await setPreferences(mia, (p) => {
      p.in_app.user_added_to_topic = 'True';
      p.email.user_added_to_topic = 'False';
    });
    const second = await createTopic(server.store.db, owen, { topicTitle: 'Hiring' });
    await addMember(second, mia);
    expect((await inbox(mia)).items).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
  });

  it('mark an item for desktop only when desktop is on and pushes are not paused', async () => {
    const kinds: boolean[] = [];
    for (const [desktop, paused] of [
      ['True', 'False'],
      ['True', 'True'],
      ['False', 'False'],
    ] as const) {
      await setPreferences(cora, (p) => {
        p.desktop.user_added_to_topic = desktop;
        p.desktop_push_disabled = paused;
      });
      const topic = await createTopic(server.store.db, owen, { topicTitle: `Desk ${desktop} ${paused}` });
      await addMember(topic, cora);
      const [newest] = (await inbox(cora)).items;
      kinds.push(newest!.desktop);
    }
    expect(kinds).toEqual([true, false, false]);
    const rows = await server.store.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, cora.id), eq(notifications.orgId, acme.id)));
    expect(rows).toHaveLength(3);
  });
});
