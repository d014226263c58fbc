// Goal 7 of issue 19 through the whole bot: 50 people each run `/mcp run fixture flood {"count": 10}` at the
// same moment (real Bolt over signed HTTP, the fixture MCP server over Streamable HTTP in its own process, the store on real Redis, the outbox)
// against the stand-in enforcing Slack's documented limits (blocks/slack-rate-limits.ts). Measured: each
// command's HTTP ack, the time to each of the 500 cards, then, with every card declined at once, the time to
// each card's update (chat.update, Tier 3 per workspace). Floors are what those limits allow: a DM takes a burst
// of posts then one per interval, so its 10th card can go (10 − burst) intervals after the first; the
// workspace's updates take a burst then one per Tier 3 interval.
import { DECLINE_ACTION } from '../blocks/ids.js';
import { POST_PER_CHANNEL, methodLimit } from '../blocks/slack-rate-limits.js';
import type { RecordedCall } from '../src/standin/index.js';
import { isCard, startBot, type Bot } from './bot.js';
import { startHttpFixture } from './fixture-http.js';
import { nowUs, row, summarize, type Row } from './stats.js';

/** Longest wait for all cards, or all updates, in ms: the updates alone are ≈ 10 min at Tier 3. */
const WAIT_MS = 30 * 60_000;
/** The questions' timeout, in ms: longer than the whole run, so none ends before it is declined. */
const QUESTION_TIMEOUT_MS = 60 * 60_000;

export interface FloodOptions {
  people: number;
  cards: number;
}

/** Resolves with the first `count` calls of `method` matching `matches`, recorded or still to come. */
async function collect(
  bot: Bot,
  method: string,
  count: number,
  matches: (c: RecordedCall) => boolean,
): Promise<RecordedCall[]> {
  const seen = new Set<RecordedCall>();
  while (seen.size < count) {
    seen.add(await bot.standin.waitForCall(method, (c) => !seen.has(c) && matches(c), WAIT_MS));
  }
  return [...seen];
}

/** Milliseconds from each of `sends` being started to its HTTP answer, and how many were not answered 200. */
async function timedAll(sends: (() => Promise<{ status: number }>)[]): Promise<Timed> {
  const answers = await Promise.all(
    sends.map(async (send) => {
      const t0 = nowUs();
      const delivery = await send();
      return { ms: (nowUs() - t0) / 1000, ok: delivery.status === 200 };
    }),
  );
  return { ms: answers.map((a) => a.ms), failed: answers.filter((a) => !a.ok).length };
}

/** Answer times in ms; `failed` counts answers other than 200 (Bolt answers 404 when no ack came within 3 s). */
interface Timed {
  ms: number[];
  failed: number;
}

const people = (n: number): string[] => Array.from({ length: n }, (_, i) => `U0FLOOD${i}`);

/** All commands at once; then every card posted. Returns the ack samples and each card's time, in ms. */
async function postCards(bot: Bot, opts: FloodOptions): Promise<{ acks: Timed; cards: RecordedCall[] }> {
  const users = people(opts.people);
  const channels = new Set(users.map((u) => bot.standin.dmChannelOf(u)));
  const text = `run fixture flood {"count": ${opts.cards}}`;
  const acks = await timedAll(
    users.map((userId) => () => bot.driver.slashCommand({ userId, command: '/mcp', text })),
  );
  const cards = await collect(
    bot,
    'chat.postMessage',
    opts.people * opts.cards,
    (c) => c.ok && channels.has(String(c.args.channel)) && isCard(c),
  );
  return { acks, cards };
}

/** Every card now in the people's DMs: where it is and whose it is. */
function cardsIn(bot: Bot, users: string[]): { channel: string; ts: string; userId: string }[] {
  return users.flatMap((userId) => {
    const channel = bot.standin.dmChannelOf(userId);
    const cards = bot.standin.messagesIn(channel).filter((m) => isCard({ args: { blocks: m.blocks } }));
    return cards.map((m) => ({ channel, ts: m.ts, userId }));
  });
}

/** Declines every card at once; resolves with the clicks' acks (ms) and each card's update call. */
async function declineAll(bot: Bot, users: string[]): Promise<{ acks: Timed; updates: RecordedCall[] }> {
  const targets = cardsIn(bot, users);
  const acks = await timedAll(
    targets.map((t) => () => bot.driver.clickButton({ ...t, actionId: DECLINE_ACTION })),
  );
  const keys = new Set(targets.map((t) => `${t.channel} ${t.ts}`));
  const updates = await collect(
    bot,
    'chat.update',
    targets.length,
    (c) => c.ok && keys.has(`${String(c.args.channel)} ${String(c.args.ts)}`),
  );
  return { acks, updates };
}

const refusals = (bot: Bot, method: string): number =>
  bot.standin.calls.filter((c) => c.method === method && c.error === 'ratelimited').length;

/** The floor of `count` calls paced by `limit`: the burst at once, then one per interval, in ms. */
const pacedFloorMs = (count: number, limit: { burst: number; intervalMs: number }): number =>
  Math.max(0, count - limit.burst) * limit.intervalMs;

function lastVsFloor(what: string, lastMs: number, floorMs: number, refused: number): string {
  const ratio = (lastMs / floorMs).toFixed(2);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return `last ${what} ${s(lastMs)} s vs ${s(floorMs)} s the limits allow = ${ratio}×; ${refused} refused (429)`;
}

export async function slackFloodBench(url: string, prefix: string, opts: FloodOptions): Promise<Row[]> {
  const policy = { timeout: QUESTION_TIMEOUT_MS, maxPending: null, ratePerMinute: null };
  const fixture = await startHttpFixture();
  const bot = await startBot(url, prefix, policy, {}, { rateLimits: true, fixtureUrl: fixture.url });
  try {
    // Bolt, the HTTP server and the MCP connection warm, as a running bot is; these people are not measured.
    for (let i = 0; i < 5; i++)
      await bot.driver.slashCommand({ userId: `U0WARM${i}`, command: '/mcp', text: 'servers' });
    const started = Date.now();
    const { acks, cards } = await postCards(bot, opts);
    const clicked = Date.now();
    const { acks: clickAcks, updates } = await declineAll(bot, people(opts.people));
    return floodRows(
      { opts, acks, clickAcks, bot },
      {
        cards: cards.map((c) => c.at - started),
        updates: updates.map((c) => c.at - clicked),
      },
    );
  } finally {
    await bot.relay.stop();
    await bot.standin.close();
    await fixture.close();
  }
}

function floodRows(
  run: { opts: FloodOptions; acks: Timed; clickAcks: Timed; bot: Bot },
  times: { cards: number[]; updates: number[] },
): Row[] {
  const { opts, bot } = run;
  const total = opts.people * opts.cards;
  const who = `${opts.people} people × ${opts.cards}`;
  const cardFloor = pacedFloorMs(opts.cards, POST_PER_CHANNEL);
  const update = methodLimit('chat.update');
  if (!update) throw new Error('chat.update has no declared limit');
  const updateFloor = pacedFloorMs(total, update);
  const last = (xs: number[]) => Math.max(...xs);
  return [
    row(
      'slack flood',
      `${opts.people} simultaneous /mcp run → HTTP ack (whole bot)`,
      summarize(run.acks.ms),
      {
        unit: 'ms',
        note: `goal p99 ≤ 100 ms; ${run.acks.failed} not answered 200`,
      },
    ),
    row('slack flood', `${who} cards: command → each card posted`, summarize(times.cards), {
      unit: 'ms',
      note: lastVsFloor('card', last(times.cards), cardFloor, refusals(bot, 'chat.postMessage')),
    }),
    row('slack flood', `${total} Decline clicks at once → HTTP ack`, summarize(run.clickAcks.ms), {
      unit: 'ms',
      note: `${run.clickAcks.failed} not answered 200`,
    }),
    row('slack flood', `${total} declined cards: first click → each card updated`, summarize(times.updates), {
      unit: 'ms',
      note: lastVsFloor('update', last(times.updates), updateFloor, refusals(bot, 'chat.update')),
    }),
  ];
}
