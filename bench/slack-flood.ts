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
import { DECLINE_ACTION } from '../blocks/ids.js';
import { REFUSAL_TEXT } from '../blocks/i18n-refusals.js';
import { POST_PER_CHANNEL, methodLimit } from '../blocks/slack-rate-limits.js';
import { settleWithin } from '../src/settle.js';
import { StandinError, type RecordedCall } from '../src/standin/index.js';
import { bareAckFloor, timedAll, type Timed } from './ack-floor.js';
import { isCard, startBot, type Bot } from './bot.js';
import { startHttpFixture } from './fixture-http.js';
import { floodTimeline, printTimeline } from './flood-timeline.js';
import { startChildBot } from './open-loop-bot.js';
import { row, summarize, type Row } from './stats.js';

/** Longest wait for all cards, and again for all updates, in ms: the 500 updates alone need ≈ 10 min at Tier 3. */
const WAIT_MS = 20 * 60_000;
/** A wait also ends when no expected call came for this long, in ms (the paced calls come every ≈ 1 s). */
const STALL_MS = 2 * 60_000;
/** How often the wait says on stderr how many calls it has seen, in ms. */
const PROGRESS_MS = 30_000;
/** Longest wait for the bot to stop, in ms (see slackFloodBench). */
const STOP_MS = 20_000;
/** The questions' timeout, in ms: longer than the whole run, so none ends before it is declined. */
const QUESTION_TIMEOUT_MS = 60 * 60_000;

/** Where the bot runs: in the bench's process, or in its own (see the top of this file). */
export type FloodBotPlace = 'inline' | 'process';

/** After the cards: nothing, every card declined at once with the clicks' acks timed, or also its update. */
export type FloodUpdates = 'none' | 'clicks' | 'all';

export interface FloodOptions {
  people: number;
  cards: number;
  /** 'all' times the 500 updates too (≥ 588 s of Tier 3 pacing at 50 × 10). */
  updates: FloodUpdates;
  /** Called with the commands' and cards' rows as soon as the cards phase ends, before any update. */
  report: (rows: Row[]) => void;
  /** Each place the flood runs the bot in, one run after the other. */
  places: FloodBotPlace[];
}

/** The bot as the flood drives it: Slack's side (the stand-in, the driver) and how to stop it. */
type FloodBot = Pick<Bot, 'standin' | 'driver'> & {
  place: FloodBotPlace;
  stop: () => Promise<void>;
  /** The bot process's CPU so far, ms ('process' only; the inline bot shares the bench's process). */
  cpuMs?: () => number | undefined;
};

/** The calls seen before the wait ended and how many of those expected never came. */
interface Collected {
  calls: RecordedCall[];
  missing: number;
}

/** The next call of `method` matching `matches` within `ms`, or undefined. */
const nextCall = (bot: FloodBot, method: string, matches: (c: RecordedCall) => boolean, ms: number) =>
  bot.standin.waitForCall(method, matches, Math.max(1, ms)).catch((e: unknown) => {
    if (e instanceof StandinError && e.code === 'wait_timeout') return undefined;
    throw e;
  });

/**
 * The first `count` calls of `method` matching `matches`, recorded or still to come, or those seen before
 * WAIT_MS passed or none came for STALL_MS: the run always ends, and says on stderr what it still waits for.
 */
async function collect(
  bot: FloodBot,
  method: string,
  count: number,
  matches: (c: RecordedCall) => boolean,
): Promise<Collected> {
  const deadline = Date.now() + WAIT_MS;
  const seen = new Set<RecordedCall>();
  let [lastSeen, nextReport] = [Date.now(), Date.now() + PROGRESS_MS];
  while (seen.size < count && Date.now() < Math.min(deadline, lastSeen + STALL_MS)) {
    const until = Math.min(deadline, lastSeen + STALL_MS, nextReport);
    const call = await nextCall(bot, method, (c) => !seen.has(c) && matches(c), until - Date.now());
    if (call) {
      seen.add(call);
      lastSeen = Date.now();
    }
    if (Date.now() >= nextReport) {
      console.error(`… ${method}: ${seen.size} of ${count} seen`);
      nextReport = Date.now() + PROGRESS_MS;
    }
  }
  if (seen.size < count) console.error(`… ${method}: ${count - seen.size} of ${count} never came`);
  return { calls: [...seen], missing: count - seen.size };
}

const people = (n: number): string[] => Array.from({ length: n }, (_, i) => `U0FLOOD${i}`);

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

/** Every card now in the people's DMs: where it is and whose it is. */
function cardsIn(bot: FloodBot, users: string[]): { channel: string; ts: string; userId: string }[] {
  return users.flatMap((userId) => {
    const channel = bot.standin.dmChannelOf(userId);
    const cards = bot.standin.messagesIn(channel).filter((m) => isCard({ args: { blocks: m.blocks } }));
    return cards.map((m) => ({ channel, ts: m.ts, userId }));
  });
}

/** Declines every card at once; resolves with the clicks' acks (ms) and the cards clicked. */
async function declineAll(bot: FloodBot, users: string[]): Promise<{ acks: Timed; cards: Set<string> }> {
  const targets = cardsIn(bot, users);
  const acks = await timedAll(
    targets.map((t) => () => bot.driver.clickButton({ ...t, actionId: DECLINE_ACTION })),
  );
  return { acks, cards: new Set(targets.map((t) => `${t.channel} ${t.ts}`)) };
}

/** Each person's flood result (its tool call ends once all its questions have), as they come. */
function toolResults(bot: FloodBot, users: string[]): Promise<Collected> {
  const channels = new Set(users.map((u) => bot.standin.dmChannelOf(u)));
  return collect(
    bot,
    'chat.postMessage',
    users.length,
    (c) =>
      c.ok &&
      channels.has(String(c.args.channel)) &&
      String(c.args.text).includes('flood on fixture finished'),
  );
}

/** `U0FLOOD3 (last: <text>)` for each person whose result is not among `seen`. */
function resultsShort(bot: FloodBot, users: string[], seen: RecordedCall[]): string {
  const posted = new Set(seen.map((c) => String(c.args.channel)));
  return users
    .filter((u) => !posted.has(bot.standin.dmChannelOf(u)))
    .map((u) => {
      const calls = bot.standin.calls.filter((c) => c.args.channel === bot.standin.dmChannelOf(u));
      const last = calls.at(-1);
      return `${u} (last: ${last?.method} ${last?.ok ? 'ok' : String(last?.error)} ${String(last?.args.text).slice(0, 80)})`;
    })
    .join(', ');
}

/** Each of `cards`' update call (chat.update), as they come. */
const cardUpdates = (bot: FloodBot, cards: Set<string>): Promise<Collected> =>
  collect(
    bot,
    'chat.update',
    cards.size,
    (c) => c.ok && cards.has(`${String(c.args.channel)} ${String(c.args.ts)}`),
  );

const refusals = (bot: FloodBot, method: string): number =>
  bot.standin.calls.filter((c) => c.method === method && c.error === 'ratelimited').length;

/** The floor of `count` calls paced by `limit`: the burst at once, then one per interval, in ms. */
const pacedFloorMs = (count: number, limit: { burst: number; intervalMs: number }): number =>
  Math.max(0, count - limit.burst) * limit.intervalMs;

function lastVsFloor(what: string, lastMs: number, floorMs: number, refused: number): string {
  const ratio = (lastMs / floorMs).toFixed(2);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return `last ${what} ${s(lastMs)} s vs ${s(floorMs)} s the limits allow = ${ratio}×; ${refused} refused (429)`;
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
    const [clicked, cpuAtClicks] = [Date.now(), bot.cpuMs?.()];
    const users = people(opts.people);
    const results = toolResults(bot, users);
    const { acks: clickAcks, cards: declined } = await declineAll(bot, users);
    const ended = await results;
    if (ended.missing > 0) console.error(`… results missing: ${resultsShort(bot, users, ended.calls)}`);
    const cpuPerClick = cpuSince(bot, cpuAtClicks, declined.size);
    const clickRows = [
      clickRow(bot, opts, clickAcks, { cpuPerClickMs: cpuPerClick, notes: clickNotes(bot, clicked) }),
      resultRow(bot, opts, { times: ended.calls.map((c) => c.at - clicked), missing: ended.missing }),
    ];
    if (opts.updates === 'clicks') return [...cardRows, ...clickRows];
    const updates = await cardUpdates(bot, declined);
    const times = updates.calls.map((c) => c.at - clicked);
    return [...cardRows, ...clickRows, updateRow(bot, opts, { times, missing: updates.missing })];
  } finally {
    await bot.stop();
  }
}

/** Times (ms) of the calls a phase waited for, and how many never came. */
interface Phase {
  times: number[];
  missing: number;
  /** The cards phase: the longest time from a DM's first card to its last, ms (the pacing alone). */
  dmSpanMs?: number;
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

const whereIs = (bot: FloodBot): string =>
  bot.place === 'inline' ? "whole bot in the bench's process" : 'whole bot in its own process';

const last = (xs: number[]) => (xs.length > 0 ? Math.max(...xs) : Number.NaN);

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

/** Each person's result after the clicks: every act recorded and relayed, the tool call ended. */
function resultRow(bot: FloodBot, opts: FloodOptions, results: Phase): Row {
  return row(
    'slack flood',
    `${opts.people} people's results: first click → each tool result posted (${whereIs(bot)})`,
    summarize(results.times),
    { unit: 'ms', note: `${results.missing} never posted` },
  );
}

/** The bot's CPU (ms) since `before`, per one of `count` ('process' only), to the µs. */
function cpuSince(bot: FloodBot, before: number | undefined, count: number): number | undefined {
  const now = bot.cpuMs?.();
  return before === undefined || now === undefined ? undefined : (now - before) / count;
}

/**
 * The notes clicks got through their response_url since `since` (epoch ms), by kind: a click the bot could not
 * record in time (Answering's REPLY_WITHIN_MS) is told so, and its question stays open.
 */
function clickNotes(bot: FloodBot, since: number): string {
  const t = REFUSAL_TEXT.en;
  const notes = bot.standin.calls.filter((c) => c.method === 'response_url' && c.at >= since);
  const count = (text: string) => notes.filter((c) => c.args.text === text).length;
  const [notRecorded, maybe] = [count(t.notRecorded), count(t.maybeNotRecorded)];
  return `${notRecorded} told "not recorded", ${maybe} "may not have been recorded", ${notes.length - notRecorded - maybe} other notes`;
}

/** The Decline clicks' acks, the notes they got, the bot's CPU per click until the last result ('process' only). */
function clickRow(
  bot: FloodBot,
  opts: FloodOptions,
  clickAcks: Timed,
  { cpuPerClickMs, notes }: { cpuPerClickMs: number | undefined; notes: string },
): Row {
  const total = opts.people * opts.cards;
  const cpu =
    cpuPerClickMs === undefined ? '' : `; the bot's CPU ${(cpuPerClickMs * 1000).toFixed(0)} µs per click`;
  return row(
    'slack flood',
    `${total} Decline clicks at once → HTTP ack (${whereIs(bot)})`,
    summarize(clickAcks.ms),
    {
      unit: 'ms',
      note: `${clickAcks.failed} not answered 200; ${notes}${cpu}`,
    },
  );
}

/** The cards' updates after the clicks, against chat.update's Tier 3 floor. */
function updateRow(bot: FloodBot, opts: FloodOptions, updates: Phase): Row {
  const total = opts.people * opts.cards;
  const update = methodLimit('chat.update');
  if (!update) throw new Error('chat.update has no declared limit');
  const updateFloor = pacedFloorMs(total, update);
  return row(
    'slack flood',
    `${total} declined cards: first click → each card updated (${whereIs(bot)})`,
    summarize(updates.times),
    {
      unit: 'ms',
      note: `${lastVsFloor('update', last(updates.times), updateFloor, refusals(bot, 'chat.update'))}; ${updates.missing} never updated`,
    },
  );
}
