// What the flood's phases share (bench/slack-flood.ts, bench/flood-clicks.ts): its options, the bot as it drives
// it, waiting for the calls Slack gets, and the rows' floors and notes.
import { isCard, type Bot } from './bot.js';
import { StandinError, type RecordedCall } from '../src/standin/index.js';
import type { Row } from './stats.js';

/** Longest wait for all cards, and again for all updates, in ms: the 500 updates alone need ≈ 10 min at Tier 3. */
const WAIT_MS = 20 * 60_000;
/** A wait also ends when no expected call came for this long, in ms (the paced calls come every ≈ 1 s). */
const STALL_MS = 2 * 60_000;
/** How often the wait says on stderr how many calls it has seen, in ms. */
const PROGRESS_MS = 30_000;

/** Where the bot runs: in the bench's process, or in its own (see bench/slack-flood.ts). */
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
export type FloodBot = Pick<Bot, 'standin' | 'driver'> & {
  place: FloodBotPlace;
  stop: () => Promise<void>;
  /** The bot process's CPU so far, ms ('process' only; the inline bot shares the bench's process). */
  cpuMs?: () => number | undefined;
};

/** The calls seen before the wait ended and how many of those expected never came. */
export interface Collected {
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
export async function collect(
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

export const people = (n: number): string[] => Array.from({ length: n }, (_, i) => `U0FLOOD${i}`);

/** Every card now in the people's DMs: where it is and whose it is. */
export function cardsIn(bot: FloodBot, users: string[]): { channel: string; ts: string; userId: string }[] {
  return users.flatMap((userId) => {
    const channel = bot.standin.dmChannelOf(userId);
    const cards = bot.standin.messagesIn(channel).filter((m) => isCard({ args: { blocks: m.blocks } }));
    return cards.map((m) => ({ channel, ts: m.ts, userId }));
  });
}

export const refusals = (bot: FloodBot, method: string): number =>
  bot.standin.calls.filter((c) => c.method === method && c.error === 'ratelimited').length;

/** The floor of `count` calls paced by `limit`: the burst at once, then one per interval, in ms. */
export const pacedFloorMs = (count: number, limit: { burst: number; intervalMs: number }): number =>
  Math.max(0, count - limit.burst) * limit.intervalMs;

export function lastVsFloor(what: string, lastMs: number, floorMs: number, refused: number): string {
  const ratio = (lastMs / floorMs).toFixed(2);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return `last ${what} ${s(lastMs)} s vs ${s(floorMs)} s the limits allow = ${ratio}×; ${refused} refused (429)`;
}

/** Times (ms) of the calls a phase waited for, and how many never came. */
export interface Phase {
  times: number[];
  missing: number;
  /** The cards phase: the longest time from a DM's first card to its last, ms (the pacing alone). */
  dmSpanMs?: number;
}

export const whereIs = (bot: FloodBot): string =>
  bot.place === 'inline' ? "whole bot in the bench's process" : 'whole bot in its own process';

export const last = (xs: number[]) => (xs.length > 0 ? Math.max(...xs) : Number.NaN);
