// The flood's last phase (bench/slack-flood.ts): every card declined at once, timed to each click's HTTP ack
// (with the notes the clicks got and the bot's CPU per click), to each person's tool result (their questions
// all declined, the call ended), and with BENCH_FLOOD_UPDATES=1 to each card's update (Tier 3: ≈ 10 min).
import { DECLINE_ACTION } from '../blocks/ids.js';
import { REFUSAL_TEXT } from '../blocks/i18n-refusals.js';
import { methodLimit } from '../blocks/slack-rate-limits.js';
import type { RecordedCall } from '../src/standin/index.js';
import { timedAll, type Timed } from './ack-floor.js';
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
  type FloodOptions,
  type Phase,
} from './flood-calls.js';
import { row, summarize, type Row } from './stats.js';

/** After the cards: the clicks' and results' rows, and the updates' with opts.updates 'all'. */
export async function declineEveryCard(bot: FloodBot, opts: FloodOptions): Promise<Row[]> {
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
  if (opts.updates !== 'all') return clickRows;
  const updates = await cardUpdates(bot, declined);
  const times = updates.calls.map((c) => c.at - clicked);
  return [...clickRows, updateRow(bot, opts, { times, missing: updates.missing })];
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
