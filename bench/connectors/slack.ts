// Slack's row: a workspace of public channels the app is in, a thousand messages a channel, some of them threads.
import { slackConnector } from '../../connectors/slack';
import { startSlackFake, type SlackFake } from '../../connectors/slack/fake';
import { ADMIN, DAY, MEMBER, credentialsFor, seedWorkspace } from '../../connectors/slack/fixture';
import { changedText, connectorRow, textPieces } from '../connector-bench';

const MESSAGES_PER_CHANNEL = 1_000;
/** One message in this many starts a thread (a thread is one document, its replies inside). */
const THREAD_EVERY = 50;
/**
 * Slack's change feed is a channel's history after its watermark less a week, so only recent messages' edits are
 * seen: the newest messages are a few days' chatter, two minutes apart, and the rest spread over two years.
 */
const RECENT = 2_000;
const RECENT_GAP_SECONDS = 120;
const SPREAD_SECONDS = 2 * 365 * DAY;

interface SlackWorkspace {
  slack: SlackFake;
  /** Item k's channel, ts and text; item 0 is the newest. */
  posted: { channel: string; ts: string; text: string }[];
}

export const slackRow = connectorRow({
  connector: slackConnector,
  isOrg: true,
  async startWorkspace(items) {
    const slack = await startSlackFake();
    // The fixture's people; its channels and their messages go.
    const fixture = seedWorkspace(slack);
    for (const channel of [fixture.general, fixture.eng, fixture.random]) slack.deleteChannel(channel);
    const channels = Array.from({ length: Math.ceil(items / MESSAGES_PER_CHANNEL) }, (_, i) => {
      const id = `C0BENCH${i}`;
      slack.addChannel({ id, name: `project-${i}`, is_channel: true, is_private: false, is_member: true }, [
        ADMIN,
        MEMBER,
        'UBOT',
      ]);
      return id;
    });
    const texts = [...textPieces(items, { min: 40, max: 1_500 })];
    const older = Math.max(1, items - RECENT);
    const ageOf = (k: number) =>
      k < RECENT
        ? k * RECENT_GAP_SECONDS
        : RECENT * RECENT_GAP_SECONDS + ((k - RECENT) * SPREAD_SECONDS) / older;
    const posted: SlackWorkspace['posted'] = new Array(items);
    // Oldest first: the fake keeps each channel's messages sorted, which is cheapest in that order.
    for (let k = items - 1; k >= 0; k--) {
      const channel = channels[k % channels.length]!;
      const text = texts[k]!.body;
      const user = k % 3 === 0 ? ADMIN : MEMBER;
      const message = slack.post(channel, { user, text, ageSeconds: ageOf(k) + 60 });
      if (k % THREAD_EVERY === 10) {
        const replyAge = Math.max(1, ageOf(k) + 30);
        slack.reply(channel, message.ts!, {
          user: MEMBER,
          text: texts[(k + 1) % items]!.title,
          ageSeconds: replyAge,
        });
        slack.reply(channel, message.ts!, {
          user: ADMIN,
          text: 'Agreed, let us go with that.',
          ageSeconds: replyAge - 1,
        });
      }
      posted[k] = { channel, ts: message.ts!, text };
    }
    return { fake: { slack, posted }, config: { baseUrl: slack.apiUrl }, credentials: credentialsFor(slack) };
  },
  change({ slack, posted }: SlackWorkspace, changes) {
    for (let n = 0; n < changes; n++) {
      const { channel, ts, text } = posted[n]!;
      slack.edit(channel, ts, `${text}\n${changedText(n)}`);
    }
  },
  requests: ({ slack }) => slack.server.requests.length,
  close: ({ slack }) => slack.close(),
});
