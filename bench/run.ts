// `npm run bench`: every benchmark next to a floor measured in the same run, printed as a Markdown table.
// Environment (all optional):
//   REDIS_URL                default redis://127.0.0.1:6379
//   BENCH_N                  measured calls per store/form operation, default 5000
//   BENCH_TIMEOUTS           pending questions in the timeout-accuracy run, default 2000 (try 100000)
//   BENCH_TIMEOUT_SPREAD_MS  deadlines spread over this many ms, default max(3000, BENCH_TIMEOUTS)
//   BENCH_BOT_N              full-bot elicitation cycles, default 50 (0 skips the bot benchmark)
//   BENCH_BURST              timeouts due at the same moment in the burst run, default 10000 (0 skips it)
//   BENCH_HOLDER_RSS         in-flight questions in the holder RSS run, default 10000 (0 skips it)
//   BENCH_MEMORY             bursts of pending questions through the whole bot, default "1000,2000" ("" skips)
//   BENCH_API_N              Automations API create→card and end→webhook samples, default 50 (0 skips them)
//   BENCH_WAITERS            long-poll waiters held on one replica, default 1000 (0 skips)
//   BENCH_MCP_N              MCP cycles of each era (2026 two-round MRTR, 2025 elicitation), default 200 (0 skips)
//   BENCH_OUTBOUND_N         outbound HTTP calls measured each way (httpFetch, Node's fetch, bare node:http), default
//                            10000; 0 skips them
//   BENCH_SESSION_STARTS     people whose first call opens an MCP session (Streamable HTTP fixture), then call
//                            again on it: the bot's CPU per session start, default 100 (0 skips)
//   BENCH_SESSION_STARTS_AT_ONCE  of those first calls at once, default 1
//   BENCH_FIRST_RUNS         people whose first /mcp run opens their MCP session while its note is held 200 ms
//                            (a distant Slack), then run again on it; the same with the note not held: default 10
//                            (0 skips)
//   BENCH_REDIS_MEMORY       pending questions (13-field schema) whose Redis memory is summed, default 5000 (0 skips)
//   BENCH_REDIS_MEMORY_SPACING_MS  > 0: those questions are created one every this many ms (the sparse case,
//                            no shared deadline slots), default 0: 20 at a time
//   BENCH_FLOOD              people × questions each for the whole bot under Slack's limits, default "50x10"
//                            ("0" skips)
//   BENCH_FLOOD_UPDATES      1 also declines every flood card and times the updates (≈ 10 min at Tier 3 for
//                            50x10); "clicks" declines every card and times the clicks' acks only; default 0:
//                            the commands' acks and the cards only (≈ 1 min)
//   BENCH_FLOOD_BOT          where the flood runs the bot, in turn: "process" (its own process), "inline" (the
//                            bench's), default "process,inline"
//   BENCH_FLOOD_TIMELINE     1 also prints, after the cards, where each DM's card time went (lookups, question
//                            created, post queued and planned, taken up by the worker, posted; bench/flood-timeline.ts)
//   BENCH_OPEN_LOOP_S        seconds of each open-loop phase (view_submission 200/s, /mcp run 100/s) against
//                            one bot process, default 60 (0 skips)
//   BENCH_OPEN_LOOP_SUBMIT_RATE  view_submissions per second of the open loop, default 200 (the goal's); a lower
//                            rate that a loaded machine keeps up with measures the bot's CPU per submission
//   BENCH_OPEN_LOOP_COMMAND_RATE  /mcp run commands per second of the open loop, default 100 (the goal's); a lower
//                            rate that a loaded machine keeps up with shows the acks and CPU when the bot is not behind
//   BENCH_OPEN_LOOP_PHASES   which open-loop phases run: "submit", "command" or both (default "submit,command")
//   BENCH_BOT_NODE_OPTIONS   NODE_OPTIONS of the open loop's bot process (e.g. "--import file:///…/probe.mjs",
//                            a preload that writes a CPU profile or event-loop delay histogram at exit)
//   BENCH_ONLY               run only the steps whose label starts with this (e.g. "automations")
import { randomBytes } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import type { StoreLogger } from '../src/store/index.js';
import { automationsBench } from './automations.js';
import { botBench } from './bot.js';
import { burstBench } from './burst.js';
import { holderRssBench } from './holder-rss.js';
import { clusterLifecycleBench } from './cluster.js';
import { formBench } from './forms.js';
import { holdersBench } from './holders.js';
import { lifecycleBench } from './lifecycle.js';
import { memoryBench } from './memory.js';
import { redisMemoryBench } from './redis-memory.js';
import { openLoopBench } from './open-loop.js';
import { roundsBench } from './rounds.js';
import { outboundHttpBench } from './outbound-http.js';
import { sessionStartsBench } from './session-starts.js';
import { cleanPrefix, inboxDelivery, pingFloor, storeOps } from './redis.js';
import type { Row } from './stats.js';
import { firstRunBench } from './first-run.js';
import { slackFloodBench, type FloodBotPlace, type FloodUpdates } from './slack-flood.js';
import { slackLimitsBench } from './slack-limits.js';
import { renderTable } from './table.js';
import { timeoutAccuracy } from './timeouts.js';

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** "50x10" → 50 people with 10 questions each; "0" → none. */
function floodEnv(
  raw: string,
): { people: number; cards: number; updates: FloodUpdates; places: FloodBotPlace[] } | undefined {
  if (raw === '0') return undefined;
  const [people, cards] = raw.split('x').map(Number);
  if (!Number.isInteger(people) || !Number.isInteger(cards) || !people || !cards)
    throw new Error(`BENCH_FLOOD must look like 50x10 or be 0, got "${raw}"`);
  const places = (process.env.BENCH_FLOOD_BOT ?? 'process,inline').split(',').filter(Boolean);
  const known = places.filter((p): p is FloodBotPlace => p === 'process' || p === 'inline');
  if (known.length === 0 || known.length !== places.length)
    throw new Error(`BENCH_FLOOD_BOT must list process and/or inline, got "${places.join(',')}"`);
  return { people, cards, updates: floodUpdatesEnv(process.env.BENCH_FLOOD_UPDATES ?? '0'), places: known };
}

/** BENCH_FLOOD_UPDATES: "1" every card's update, "clicks" the Decline clicks' acks only, "0" neither. */
function floodUpdatesEnv(raw: string): FloodUpdates {
  if (raw === 'clicks') return 'clicks';
  if (raw === '0' || raw === '1') return raw === '1' ? 'all' : 'none';
  throw new Error(`BENCH_FLOOD_UPDATES must be 0, 1 or clicks, got "${raw}"`);
}

/** "submit,command" → both open-loop phases; "submit" → the view_submission phase only. */
function openLoopPhases(raw: string): ('submit' | 'command')[] {
  const phases = raw.split(',').filter(Boolean);
  const known = phases.filter((p): p is 'submit' | 'command' => p === 'submit' || p === 'command');
  if (known.length !== phases.length || known.length === 0)
    throw new Error(`BENCH_OPEN_LOOP_PHASES must list submit and/or command, got "${raw}"`);
  return known;
}

const logger: StoreLogger = {
  warn: (obj, msg) => console.error(`[store warn] ${msg}`, obj),
  info: () => undefined,
};

async function main(): Promise<void> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const n = intEnv('BENCH_N', 5_000);
  const count = intEnv('BENCH_TIMEOUTS', 2_000);
  const spreadMs = intEnv('BENCH_TIMEOUT_SPREAD_MS', Math.max(3_000, count));
  const botN = intEnv('BENCH_BOT_N', 50);
  const burst = intEnv('BENCH_BURST', 10_000);
  const holderRss = intEnv('BENCH_HOLDER_RSS', 10_000);
  const apiN = intEnv('BENCH_API_N', 50);
  const mcpN = intEnv('BENCH_MCP_N', 200);
  const outboundN = intEnv('BENCH_OUTBOUND_N', 10_000);
  const sessionStarts = intEnv('BENCH_SESSION_STARTS', 100);
  const sessionStartsAtOnce = Math.max(1, intEnv('BENCH_SESSION_STARTS_AT_ONCE', 1));
  const firstRuns = intEnv('BENCH_FIRST_RUNS', 10);
  const waiters = intEnv('BENCH_WAITERS', 1_000);
  const redisMemory = intEnv('BENCH_REDIS_MEMORY', 5_000);
  const redisMemorySpacingMs = intEnv('BENCH_REDIS_MEMORY_SPACING_MS', 0);
  const openLoopS = intEnv('BENCH_OPEN_LOOP_S', 60);
  const submitRate = intEnv('BENCH_OPEN_LOOP_SUBMIT_RATE', 200);
  const commandRate = intEnv('BENCH_OPEN_LOOP_COMMAND_RATE', 100);
  const flood = floodEnv(process.env.BENCH_FLOOD ?? '50x10');
  const memory = (process.env.BENCH_MEMORY ?? '1000,2000').split(',').filter(Boolean).map(Number);
  console.log(
    `elicit-relay bench: node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), `,
  );
  console.log(`${Math.round(totalmem() / 2 ** 30)} GiB RAM, Redis ${url}, prefix ${prefix}\n`);
  deleteKeysOnSignal(url, prefix);
  const rows: Row[] = [];
  const only = process.env.BENCH_ONLY ?? '';
  const step = async (label: string, run: () => Promise<Row[]>): Promise<void> => {
    if (!label.startsWith(only)) return;
    console.error(`… ${label}`);
    rows.push(...(await run()));
  };
  const opts = { url, prefix, n, logger };
  try {
    await step('PING floor', async () => [await pingFloor(url, 10_000)]);
    await step('store create/get/finish', () => storeOps(opts));
    await step('inbox delivery', async () => [await inboxDelivery(opts)]);
    await step('question lifecycle vs in-memory', () => lifecycleBench(opts));
    await step('holders: one holder process vs three', () => holdersBench(opts));
    await step('cluster: question lifecycle on a 3-master Cluster vs one Redis', () =>
      clusterLifecycleBench(opts),
    );
    await step(`timeouts (${count} pending)`, () => timeoutAccuracy({ ...opts, count, spreadMs }));
    if (redisMemory > 0)
      await step(`redis memory (${redisMemory} pending)`, () =>
        redisMemoryBench(opts, redisMemory, redisMemorySpacingMs),
      );
    if (burst > 0) await step(`burst (${burst} due at once)`, () => burstBench({ ...opts, count: burst }));
    if (holderRss > 0)
      await step(`rss: a holder with ${holderRss} questions in flight`, () =>
        holderRssBench(opts, holderRss),
      );
    // A floor after the long runs shows how much the machine drifted during the run.
    await step('PING again', async () => [
      { ...(await pingFloor(url, 10_000)), name: 'PING again (drift check)' },
    ]);
    await step('form engine', () => Promise.resolve(formBench(n)));
    await step('slack limits (500 cards paced by Slack’s documented limits)', () =>
      slackLimitsBench(url, `${prefix}:limits`),
    );
    if (flood)
      await step(`slack flood: the whole bot under Slack's limits (${flood.people} × ${flood.cards})`, () =>
        slackFloodBench(url, `${prefix}:flood`, {
          ...flood,
          // The cards' rows on stderr at once: the updates phase after them can take ≈ 10 min.
          report: (cardRows) => console.error(`… cards phase ended:\n${renderTable(cardRows)}`),
        }),
      );
    if (openLoopS > 0)
      await step(
        `open loop: view_submission ${submitRate}/s and /mcp run ${commandRate}/s, ${openLoopS} s each`,
        () =>
          openLoopBench({
            url,
            prefix: `${prefix}:open`,
            seconds: openLoopS,
            submitRate,
            commandRate,
            phases: openLoopPhases(process.env.BENCH_OPEN_LOOP_PHASES ?? 'submit,command'),
          }),
      );
    if (mcpN > 0) await step(`mcp: 2026 rounds and 2025 elicitation (${mcpN} each)`, () => roundsBench(mcpN));
    if (outboundN > 0)
      await step(`outbound http (${outboundN} calls each)`, () => outboundHttpBench(outboundN));
    if (sessionStarts > 0)
      await step(`mcp session starts (${sessionStarts} people)`, () =>
        sessionStartsBench(sessionStarts, sessionStartsAtOnce),
      );
    if (firstRuns > 0)
      await step(`first run: a person's first /mcp run with a distant Slack (${firstRuns} people)`, () =>
        firstRunBench(url, `${prefix}:first`, firstRuns),
      );
    if (botN > 0) await step(`full bot (${botN} cycles)`, () => botBench(url, `${prefix}:bot`, botN));
    if (apiN > 0 || waiters > 0)
      await step(`automations (${apiN} samples, ${waiters} waiters)`, () =>
        automationsBench(url, `${prefix}:api`, apiN, waiters),
      );
    if (memory.length > 0)
      await step(`memory (bursts of ${memory.join(', ')})`, () => memoryBench(url, `${prefix}:mem`, memory));
  } finally {
    const deleted = await cleanPrefix(url, prefix);
    console.error(`… deleted ${deleted} keys under ${prefix}:`);
  }
  console.log(renderTable(rows));
}

/** A run stopped by Ctrl-C or a kill still deletes its keys (a stopped 50 × 10 flood once left 1,320). */
function deleteKeysOnSignal(url: string, prefix: string): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`… ${signal}: deleting the keys under ${prefix}: before exiting`);
      cleanPrefix(url, prefix).then(
        (deleted) => {
          console.error(`… deleted ${deleted} keys under ${prefix}:`);
          process.exit(1);
        },
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
