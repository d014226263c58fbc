// Goal 7 of issue 19 at the outbox: 50 people × 10 cards, each person's DM its own channel, posted through the
// outbox against the stand-in enforcing Slack's documented limits (blocks/slack-rate-limits.ts). The floor is
// what those limits allow: a channel takes a burst, then one post per interval, so its last post of 10 can go
// (10 − burst) intervals after the first. Refused calls (429) are counted: pacing should leave none.
import { webApi } from '@slack/bolt';
import { POST_PER_CHANNEL } from '../blocks/slack-rate-limits.js';
import { Outbox, classifySlackError, slackHandler } from '../src/slack/outbox/index.js';
import { singleWorkspace } from '../src/slack/workspaces.js';
import { startSlackStandin } from '../src/standin/index.js';
import { nowUs, row, summarize, type Row } from './stats.js';

const BOT_TOKEN = 'xoxb-bench-limits';
const PEOPLE = 50;
const CARDS = 10;
const quiet = { warn: () => undefined, info: () => undefined };

export async function slackLimitsBench(url: string, prefix: string): Promise<Row[]> {
  const standin = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits: true });
  const client = new webApi.WebClient(BOT_TOKEN, {
    slackApiUrl: standin.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: webApi.LogLevel.ERROR,
  });
  const outbox = await Outbox.open({ url, prefix, logger: quiet });
  try {
    await outbox.start(slackHandler(singleWorkspace(client)), classifySlackError);
    const channels = Array.from({ length: PEOPLE }, (_, i) => standin.dmChannelOf(`UBENCH${i}`));
    const started = nowUs();
    const done: number[] = [];
    const results = await Promise.all(
      channels.flatMap((channel) =>
        Array.from({ length: CARDS }, async (_, i) => {
          const result = await outbox.send({
            method: 'chat.postMessage',
            channel,
            args: { text: `card ${i}` },
          });
          done.push((nowUs() - started) / 1000);
          return result;
        }),
      ),
    );
    const failed = results.filter((r) => !r.ok).length;
    const refused = standin.calls.filter((c) => c.error === 'ratelimited').length;
    const floorMs = (CARDS - POST_PER_CHANNEL.burst) * POST_PER_CHANNEL.intervalMs;
    const lastMs = Math.max(...done);
    const note = `last card ${(lastMs / 1000).toFixed(2)} s vs ${(floorMs / 1000).toFixed(0)} s the limits allow = ${(lastMs / floorMs).toFixed(2)}×; ${failed} failed, ${refused} refused (429)`;
    return [
      row(
        'slack limits',
        `${PEOPLE} people × ${CARDS} cards through the outbox, time to each post`,
        summarize(done),
        {
          unit: 'ms',
          note,
        },
      ),
    ];
  } finally {
    await outbox.close();
    await standin.close();
  }
}
