// The whole bot in-process (real Bolt, real store, fixture MCP server over stdio) driven through the Slack
// stand-in. Floor: a raw HTTP round trip to the stand-in (auth.test), i.e. one loopback request with no bot.
import { fileURLToPath } from 'node:url';
import { loadSlackConfig } from '../test/support/config.js';
import { createLogger } from '../src/logger.js';
import { start, type RunningRelay } from '../src/main.js';
import {
  SlackDriver,
  startSlackStandin,
  type RecordedCall,
  type SlackStandin,
} from '../src/standin/index.js';
import { nowUs, row, summarize, type Row } from './stats.js';

const BOT_TOKEN = 'xoxb-bench-token';
const SIGNING_SECRET = 'bench-signing-secret';
const FIXTURE = fileURLToPath(new URL('../test/fixtures/elicit-server.ts', import.meta.url));
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};
/** Longest wait for one posted message or opened view, in ms. */
const WAIT_MS = 15_000;
const WARMUP = 5;

export interface Bot {
  relay: RunningRelay;
  standin: SlackStandin;
  driver: SlackDriver;
}

export interface BotOptions {
  /** The stand-in enforces Slack's documented rate limits (blocks/slack-rate-limits.ts) when true. */
  rateLimits?: boolean;
  /** The fixture served over Streamable HTTP at this URL (see fixture-http.ts); default: over stdio. */
  fixtureUrl?: string;
  /** Every Slack call answered this many ms late (StandinOptions.latencyMs); default 0. */
  slackLatencyMs?: number;
}

/** The bot with the fixture server; `elicitation` is the fixture's policy (timeout, limits); `env` adds settings. */
export async function startBot(
  url: string,
  prefix: string,
  elicitation: object = {},
  env: Record<string, string> = {},
  opts: BotOptions = {},
): Promise<Bot> {
  const { rateLimits = false, fixtureUrl, slackLatencyMs = 0 } = opts;
  const fixture = fixtureUrl
    ? { url: fixtureUrl, elicitation }
    : { command: process.execPath, args: ['--import', 'tsx', FIXTURE], elicitation };
  const standin = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits, latencyMs: slackLatencyMs });
  const config = loadSlackConfig({
    env: {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: standin.apiUrl,
      REDIS_URL: url,
      REDIS_PREFIX: prefix,
      PORT: '0',
      ELICIT_RELAY_CONFIG: 'bench.json',
      ...env,
    },
    readFile: () =>
      JSON.stringify({
        mcpServers: {
          fixture,
        },
      }),
  });
  // BENCH_LOG_LEVEL (default silent) shows the bot's own logs on stderr, e.g. debug to find where a run stalls.
  const relay = await start(config, createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent', process.stderr));
  const eventsUrl = `http://127.0.0.1:${relay.port}/slack/events`;
  return { relay, standin, driver: new SlackDriver({ eventsUrl, signingSecret: SIGNING_SECRET, standin }) };
}

interface Cycle {
  slashAck: number;
  card: number;
  submitAck: number;
}

/** One elicitation: slash command → card → Respond → modal → submit → tool result; times in µs. */
async function cycle(bot: Bot, userId: string, seen: Set<RecordedCall>): Promise<Cycle> {
  const { standin, driver } = bot;
  const channel = standin.dmChannelOf(userId);
  const posted = (card: boolean) =>
    standin.waitForCall(
      'chat.postMessage',
      (c) => !seen.has(c) && c.ok && c.args.channel === channel && isCard(c) === card,
      WAIT_MS,
    );
  const t0 = nowUs();
  const text = `run fixture ask ${JSON.stringify({ message: 'Bench', schema: SCHEMA })}`;
  const slash = await driver.slashCommand({ userId, command: '/mcp', text });
  const slashAck = nowUs() - t0;
  if (slash.status !== 200) throw new Error(`slash command got HTTP ${slash.status}`);
  const cardCall = await posted(true);
  const card = nowUs() - t0;
  seen.add(cardCall);
  const ts = standin.messagesIn(channel).findLast((m) => isCard({ args: { blocks: m.blocks } }))?.ts ?? '';
  await driver.clickButton({ userId, channel, ts, actionId: 'elicit_respond' });
  await standin.waitForCall('views.open', (c) => !seen.has(c) && c.ok, WAIT_MS).then((c) => seen.add(c));
  const view = standin.openViews(userId)[0];
  if (!view) throw new Error('no modal open');
  const blockId = (view.view as { blocks: { type: string; block_id: string }[] }).blocks.find(
    (b) => b.type === 'input',
  )?.block_id;
  const t1 = nowUs();
  const submit = await driver.submitView({ userId, viewId: view.id, values: { [blockId ?? '']: 'Ada' } });
  const submitAck = nowUs() - t1;
  if (submit.status !== 200 || submit.body !== '') throw new Error(`submit answered ${submit.body}`);
  seen.add(await posted(false));
  return { slashAck, card, submitAck };
}

/** A request card: a message with the Respond button. */
export const isCard = (c: { args: Record<string, unknown> }): boolean =>
  JSON.stringify(c.args.blocks ?? '').includes('elicit_respond');

export async function botBench(url: string, prefix: string, n: number): Promise<Row[]> {
  const bot = await startBot(url, prefix);
  try {
    const rawRoundTrip = () =>
      fetch(`${bot.standin.apiUrl}auth.test`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${BOT_TOKEN}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: '',
      }).then((r) => r.text());
    for (let i = 0; i < 20; i++) await rawRoundTrip();
    // One floor sample right before each cycle, so both see the same machine conditions.
    const floorSamples: number[] = [];
    const seen = new Set<RecordedCall>();
    const cycles: Cycle[] = [];
    for (let i = 0; i < n + WARMUP; i++) {
      const t0 = nowUs();
      await rawRoundTrip();
      const floorUs = nowUs() - t0;
      const c = await cycle(bot, `U0BENCH${i % 5}`, seen);
      if (i < WARMUP) continue;
      floorSamples.push(floorUs);
      cycles.push(c);
    }
    const floor = summarize(floorSamples);
    const floorP50 = floor.p50;
    const pick = (k: keyof Cycle) => summarize(cycles.map((c) => c[k]));
    return [
      row('bot', 'raw HTTP round trip to the stand-in (auth.test) = floor', floor),
      row('bot', '/mcp slash command → HTTP ack', pick('slashAck'), { floorP50 }),
      row('bot', '/mcp slash command → card posted (MCP + store + chat.postMessage)', pick('card'), {
        floorP50,
      }),
      row('bot', 'view_submission → HTTP ack (readSubmission + store.finish)', pick('submitAck'), {
        floorP50,
      }),
    ];
  } finally {
    await bot.relay.stop();
    await bot.standin.close();
  }
}
