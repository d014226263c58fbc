// Goal 7 of issue 19 through the whole bot: 50 people each run `/mcp run fixture flood {"count": 10}` at the
// same moment (real Bolt over signed HTTP, the fixture MCP server over Streamable HTTP in its own process, the store on real Redis, the outbox)
// against the stand-in enforcing Slack's documented limits (blocks/slack-rate-limits.ts). Measured: each
// command's HTTP ack, the time to each of the 500 cards, then, with every card declined at once, the time to
// each card's update (chat.update, Tier 3 per workspace; only with BENCH_FLOOD_UPDATES=1, since it needs ≈ 10 min;
// BENCH_FLOOD_UPDATES=clicks times the clicks' acks alone).
// The cards' rows are reported as soon as the cards phase ends. Floors are what those limits allow: a DM takes a burst
// of posts then one per interval, so its 10th card can go (10 − burst) intervals after the first; the
// workspace's updates take a burst then one per Tier 3 interval. The commands' acks have their own floor, taken
// first in the same run: the same signed requests at once to a bare HTTP server (bench/ack-floor.ts), which is
// what sending and reading them costs the measuring side alone.
// The bot runs in the bench's process ('inline': the bench's HTTP client and the stand-in then wait on the bot's
// event loop, so the acks measure the three together) or in its own process ('process', as bench/open-loop-bot.ts
// runs it: Slack is another machine); BENCH_FLOOD_BOT picks either or both, one after the other.
import { POST_PER_CHANNEL } from '../blocks/slack-rate-limits.js';
import { settleWithin } from '../src/settle.js';
import type { RecordedCall } from '../src/standin/index.js';
import { bareAckFloor, timedAll, type Timed } from './ack-floor.js';
import { isCard, startBot } from './bot.js';
import {
  cardsIn,
  collect,
  last,
  lastVsFloor,
  pacedFloorMs,
  people,
  refusals,
  whereIs,
  type Collected,
  type FloodBot,
  type FloodBotPlace,
  type FloodOptions,
  type Phase,
} from './flood-calls.js';
import { declineEveryCard } from './flood-clicks.js';
import { startHttpFixture } from './fixture-http.js';
import { floodTimeline, printTimeline } from './flood-timeline.js';
import { startChildBot } from './open-loop-bot.js';
import { row, summarize, type Row } from './stats.js';

export type { FloodBotPlace, FloodOptions, FloodUpdates } from './flood-calls.js';

/** Longest wait for the bot to stop, in ms (see slackFloodBench). */
const STOP_MS = 20_000;
/** The questions' timeout, in ms: longer than the whole run, so none ends before it is declined. */
const QUESTION_TIMEOUT_MS = 60 * 60_000;

/**
 * The ack floor, then all commands at once, then every card posted. Returns the ack samples, the cards and when
 * the commands were sent (epoch ms): the cards are timed from then, not from the floor's requests before them.
 */
async function postCards(
  bot: FloodBot,
  opts: FloodOptions,
): Promise<{ floor: Timed; acks: Timed; cards: Collected; sentAt: number }> {
  const users = people(opts.people);
  const channels = new Set(users.map((u) => bot.standin.dmChannelOf(u)));
  const text = `run fixture flood {"count": ${opts.cards}}`;
  const requests = users.map((userId) => bot.driver.slashCommandRequest({ userId, command: '/mcp', text }));
  const floor = await bareAckFloor(requests);
  const sentAt = Date.now();
  const acks = await timedAll(
    users.map((userId) => () => bot.driver.slashCommand({ userId, command: '/mcp', text })),
  );
  const cards = await collect(
    bot,
    'chat.postMessage',
    opts.people * opts.cards,
    (c) => c.ok && channels.has(String(c.args.channel)) && isCard(c),
  );
  if (cards.missing > 0) console.error(`… cards missing per person: ${cardsShort(bot, users, opts.cards)}`);
  return { floor, acks, cards, sentAt };
}

/** `U0FLOOD3 has 7` for each person with fewer than `expected` cards in their DM. */
function cardsShort(bot: FloodBot, users: string[], expected: number): string {
  const counts = users.map((u) => ({ u, n: cardsIn(bot, [u]).length }));
  return counts
    .filter((c) => c.n < expected)
    .map((c) => `${c.u} has ${c.n}`)
    .join(', ');
}

/** The worst DM's first-to-last card time against the same floor: the pacing's share of the ratio. */
const dmSpanVsFloor = (spanMs: number | undefined, floorMs: number): string =>
  spanMs === undefined
    ? 'no DM span'
    : `worst DM first → last card ${(spanMs / 1000).toFixed(2)} s = ${(spanMs / floorMs).toFixed(2)}× (pacing alone)`;

export async function slackFloodBench(url: string, prefix: string, opts: FloodOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const place of opts.places) rows.push(...(await floodOnce(url, `${prefix}:${place}`, opts, place)));
  return rows;
}

/** The bot in `place` under Slack's limits, with the elicit fixture over Streamable HTTP. */
async function startFloodBot(url: string, prefix: string, place: FloodBotPlace): Promise<FloodBot> {
  if (place === 'process') {
    const child = await startChildBot(url, prefix, true);
    return { place, standin: child.standin, driver: child.driver, stop: child.close, cpuMs: child.cpuMs };
  }
  const policy = { timeout: QUESTION_TIMEOUT_MS, maxPending: null, ratePerMinute: null };
  const fixture = await startHttpFixture();
  const bot = await startBot(url, prefix, policy, {}, { rateLimits: true, fixtureUrl: fixture.url });
  const stop = async () => {
    // Stopping ends the questions still pending and waits for their cards' updates Slack's pacing lets go
    // now. Not waited for past STOP_MS: the run exits at its end anyway.
    if (!(await settleWithin([bot.relay.stop()], STOP_MS)))
      console.error(`… the bot is still updating its ended questions' cards; not waited for`);
    await bot.standin.close();
    await fixture.close();
  };
  return { place, standin: bot.standin, driver: bot.driver, stop };
}

async function floodOnce(
  url: string,
  prefix: string,
  opts: FloodOptions,
  place: FloodBotPlace,
): Promise<Row[]> {
  const bot = await startFloodBot(url, prefix, place);
  try {
    // Bolt, the HTTP server and the MCP connection warm, as a running bot is; these people are not measured.
    for (let i = 0; i < 5; i++)
      await bot.driver.slashCommand({ userId: `U0WARM${i}`, command: '/mcp', text: 'servers' });
    const cpuBefore = bot.cpuMs?.();
    const { floor, acks, cards, sentAt: started } = await postCards(bot, opts);
    const cpuAfter = bot.cpuMs?.();
    if (cpuBefore !== undefined && cpuAfter !== undefined)
      console.error(`… the bot's CPU from the commands to the last card: ${cpuAfter - cpuBefore} ms`);
    const cardRows = cardsRows(bot, opts, floor, acks, {
      times: cards.calls.map((c) => c.at - started),
      missing: cards.missing,
      dmSpanMs: worstDmSpanMs(cards.calls),
    });
    opts.report(cardRows);
    if (process.env.BENCH_FLOOD_TIMELINE === '1') {
      const dms = new Map(people(opts.people).map((u) => [u, bot.standin.dmChannelOf(u)]));
      printTimeline(await floodTimeline(url, prefix, started, dms, bot.standin.calls));
    }
    if (opts.updates === 'none') return cardRows;
    return [...cardRows, ...(await declineEveryCard(bot, opts))];
  } finally {
    await bot.stop();
  }
}

/**
 * The longest time from a DM's first post to its last among `posts`, in ms. Against the same floor it shows
 * the outbox's pacing apart from what comes before a DM's first card (MCP session start, question creation).
 */
function worstDmSpanMs(posts: RecordedCall[]): number {
  const byChannel = new Map<string, number[]>();
  for (const post of posts) {
    const channel = String(post.args.channel);
    byChannel.set(channel, [...(byChannel.get(channel) ?? []), post.at]);
  }
  const spans = [...byChannel.values()].map((ats) => Math.max(...ats) - Math.min(...ats));
  return spans.length > 0 ? Math.max(...spans) : Number.NaN;
}

/** The commands' acks and the cards, against the channel limit's floor. */
function cardsRows(bot: FloodBot, opts: FloodOptions, floor: Timed, acks: Timed, cards: Phase): Row[] {
  const who = `${opts.people} people × ${opts.cards}`;
  const cardFloor = pacedFloorMs(opts.cards, POST_PER_CHANNEL);
  const floorSummary = summarize(floor.ms);
  return [
    row(
      'slack flood',
      `floor: the same ${opts.people} signed requests at once → a bare HTTP server's 200 (same client)`,
      floorSummary,
      { unit: 'ms', note: `${floor.failed} not answered 200` },
    ),
    row(
      'slack flood',
      `${opts.people} simultaneous /mcp run → HTTP ack (${whereIs(bot)})`,
      summarize(acks.ms),
      {
        unit: 'ms',
        floorP50: floorSummary.p50,
        note: `goal p99 ≤ 100 ms; ${acks.failed} not answered 200`,
      },
    ),
    row('slack flood', `${who} cards: command → each card posted (${whereIs(bot)})`, summarize(cards.times), {
      unit: 'ms',
      note: `${lastVsFloor('card', last(cards.times), cardFloor, refusals(bot, 'chat.postMessage'))}; ${dmSpanVsFloor(cards.dmSpanMs, cardFloor)}; ${cards.missing} never posted; ${refusals(bot, 'views.publish')} Home tab publishes refused (views.publish, Tier 4)`,
    }),
  ];
}
