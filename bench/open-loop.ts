// Goal 6 of issue 19: an open-loop load generator. Requests go on a schedule (request i at start + i / rate),
// each fired at its time whether or not earlier ones have been answered, and each latency is taken from its
// scheduled time, not from when it was sent, so a slow bot cannot slow the load down and hide its own delay
// (coordinated omission). Two phases against one replica in its own process (open-loop-bot.ts):
// `view_submission` at 200/s and `/mcp run fixture echo` at 100/s, each for BENCH_OPEN_LOOP_S seconds (60).
// Checked, not only timed: every submitted question ended exactly once, accepted with the answer submitted
// (the generator holds the questions, so each outcome comes to its inbox), and every command's tool result was
// posted exactly once. The 2 cores are shared by the generator (with the Slack stand-in), the bot, the
// fixture MCP server and Redis, and by whatever else runs on the machine.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Question } from '../src/relay/types.js';
import type { SlackStandin } from '../src/standin/index.js';
import { QuestionStore } from '../src/store/index.js';
import { prepareSubmissions, startChildBot, type ChildBot, type Submission } from './open-loop-bot.js';
import { row, summarize, type Row } from './stats.js';

/** How long the generator waits after the last request for outcomes and results to arrive, in ms. */
const SETTLE_MS = 120_000;

export interface OpenLoopOptions {
  url: string;
  prefix: string;
  /** Seconds of each phase. */
  seconds: number;
  submitRate: number;
  commandRate: number;
  /** The phases to run; default both. */
  phases?: readonly ('submit' | 'command')[];
}

interface Fired {
  /** ms from each request's scheduled time to its complete answer. */
  latencies: number[];
  /** The same by request index, undefined for an error (so a phase can split its requests by when they ran). */
  byIndex: (number | undefined)[];
  /** Requests answered other than as expected (status, body) or not at all. */
  errors: number;
  /** The generator's own lateness: ms from each scheduled time to the moment it was sent, worst one. */
  worstSendLagMs: number;
}

/** Fires `fire(i)` for i < rate × seconds at start + i / rate, never waiting for earlier answers. */
export async function openLoop(
  rate: number,
  seconds: number,
  fire: (i: number) => Promise<boolean>,
): Promise<Fired> {
  const total = Math.round(rate * seconds);
  const start = performance.now() + 100;
  const pending: Promise<number | undefined>[] = [];
  let worstSendLagMs = 0;
  for (let i = 0; i < total; i++) {
    const at = start + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    worstSendLagMs = Math.max(worstSendLagMs, performance.now() - at);
    pending.push(
      fire(i).then(
        (ok) => (ok ? performance.now() - at : undefined),
        () => undefined,
      ),
    );
  }
  const answered = await Promise.all(pending);
  const latencies = answered.filter((ms): ms is number => ms !== undefined);
  return { latencies, byIndex: answered, errors: total - latencies.length, worstSendLagMs };
}

/** Outcomes that came to the holder's inbox, by question id. */
function outcomeLog(): { byId: Map<string, Question[]>; onOutcome: (q: Question) => void } {
  const byId = new Map<string, Question[]>();
  return { byId, onOutcome: (q) => byId.set(q.id, [...(byId.get(q.id) ?? []), q]) };
}

/** Waits (polling: a bench, not a test) until `done()` or SETTLE_MS passed. */
async function settle(done: () => boolean): Promise<void> {
  const until = Date.now() + SETTLE_MS;
  while (!done() && Date.now() < until) await sleep(250);
}

/** Questions not ended exactly once with their submitted answer (lost, doubled, or a wrong outcome). */
function wrongOutcomes(subs: Submission[], byId: Map<string, Question[]>): number {
  return subs.filter((s) => {
    const got = byId.get(s.question.id) ?? [];
    const outcome = got[0]?.outcome;
    const content = outcome?.action === 'accept' ? outcome.content : undefined;
    return got.length !== 1 || content?.name !== s.answer;
  }).length;
}

async function submitPhase(o: OpenLoopOptions, bot: ChildBot): Promise<Row> {
  const holder = await QuestionStore.open({ url: o.url, prefix: o.prefix, holderId: 'bench-open-loop' });
  try {
    const log = outcomeLog();
    await holder.startInbox(log.onOutcome);
    const subs = await prepareSubmissions(holder, bot.standin, Math.round(o.submitRate * o.seconds));
    const cpuBefore = bot.cpuMs();
    const fired = await openLoop(o.submitRate, o.seconds, async (i) => {
      const reply = await bot.driver.send({ payload: subs[i]?.payload ?? {} });
      return reply.status === 200 && reply.body === '';
    });
    const cpu = cpuPerRequest(cpuBefore, bot.cpuMs(), subs.length);
    await settle(() => log.byId.size >= subs.length);
    const wrong = wrongOutcomes(subs, log.byId);
    const name = `view_submission at ${o.submitRate}/s for ${o.seconds} s, open loop → HTTP ack`;
    return loopRow(
      name,
      fired,
      `${wrong} of ${subs.length} questions not ended exactly once with the answer; ${cpu}`,
    );
  } finally {
    await holder.close();
  }
}

/**
 * The bot process's CPU per request over the phase, in µs: on a machine whose cores are shared, what decides
 * whether the bot keeps up at all. Read once every request was answered (a submission's outcome is stored before
 * its ack), not after the wait for outcomes, whose idle seconds a missing outcome would add.
 */
function cpuPerRequest(before: number | undefined, after: number | undefined, requests: number): string {
  if (before === undefined || after === undefined || requests === 0) return 'bot CPU not measured';
  return `bot CPU ${Math.round(((after - before) * 1000) / requests)} µs per request`;
}

/** Tool-result posts per marker `ol-<i>-run` seen by the stand-in (a post counted once per marker). */
function resultsByMarker(standin: SlackStandin): Map<string, number> {
  const seen = new Map<string, number>();
  for (const c of standin.calls) {
    if (c.method !== 'chat.postMessage' || !c.ok) continue;
    const markers = new Set(JSON.stringify(c.args).match(/ol-\d+-run/g) ?? []);
    for (const m of markers) seen.set(m, (seen.get(m) ?? 0) + 1);
  }
  return seen;
}

async function commandPhase(o: OpenLoopOptions, bot: ChildBot): Promise<Row> {
  const total = Math.round(o.commandRate * o.seconds);
  // A person's results share their DM's 1 post/s: each person runs a command at most every 5 s.
  const people = Math.max(1, o.commandRate * 5);
  const cpuBefore = bot.cpuMs();
  const failures = new Map<string, number>();
  const fired = await openLoop(o.commandRate, o.seconds, async (i) => {
    const text = `run fixture echo ${JSON.stringify({ text: `ol-${i}-run` })}`;
    const reply = await bot.driver
      .slashCommand({ userId: `U0OLC${i % people}`, command: '/mcp', text })
      .catch((error: unknown) => countFailure(failures, failureOf(error)));
    // Acked empty at once; "Running…" follows through the response_url (counted below).
    if (reply === undefined) return false;
    const ok = reply.status === 200 && reply.body === '';
    if (!ok) countFailure(failures, `HTTP ${reply.status} ${reply.body.slice(0, 40)}`);
    return ok;
  });
  await settle(() => resultsByMarker(bot.standin).size >= total);
  // Here, not when the last ack came: a command's work (the tool call, its result's post) follows its ack.
  const cpu = cpuPerRequest(cpuBefore, bot.cpuMs(), total);
  const seen = resultsByMarker(bot.standin);
  const lost = total - seen.size;
  const doubled = [...seen.values()].filter((n) => n > 1).length;
  const running = bot.standin.calls.filter(
    (c) => c.method === 'response_url' && String(c.args.text).startsWith('Running'),
  ).length;
  const name = `/mcp run at ${o.commandRate}/s for ${o.seconds} s, open loop → HTTP ack`;
  return loopRow(
    name,
    fired,
    `errors by kind: ${kinds(failures)}; tool results: ${lost} of ${total} not posted, ${doubled} posted more than once; ${running} "Running" notes; ` +
      `${firstCommandsSplit(fired, people)}; ${cpu}`,
  );
}

/** Counts one failed request under `kind`; undefined, so a failed send reads as no reply. */
function countFailure(failures: Map<string, number>, kind: string): undefined {
  failures.set(kind, (failures.get(kind) ?? 0) + 1);
  return undefined;
}

/** A failed send's kind: the socket error's code when fetch names one (ECONNRESET…), else its message. */
function failureOf(error: unknown): string {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message.slice(0, 40) : String(error);
}

const kinds = (failures: Map<string, number>): string =>
  failures.size === 0 ? 'none' : [...failures].map(([kind, n]) => `${n}× ${kind}`).join(', ');

/**
 * The acks' p99 over each person's first command (the phase's first 5 s: the replica looks up the person's
 * locale and opens their DM, users.info and conversations.open) and over the rest, so a p99 set by that start
 * is told from one set by the steady state.
 */
function firstCommandsSplit(fired: Fired, people: number): string {
  const answered = (xs: (number | undefined)[]) => xs.filter((ms): ms is number => ms !== undefined);
  const first = summarize(answered(fired.byIndex.slice(0, people)));
  const rest = summarize(answered(fired.byIndex.slice(people)));
  return `p99 of each person's first command ${first.p99.toFixed(1)} ms, of the rest ${rest.p99.toFixed(1)} ms`;
}

function loopRow(name: string, fired: Fired, checked: string): Row {
  const lag = `generator's worst send lag ${fired.worstSendLagMs.toFixed(1)} ms`;
  return row('open loop', name, summarize(fired.latencies), {
    unit: 'ms',
    note: `goal p99 ≤ 25 ms; ${fired.errors} errors; ${checked}; ${lag}`,
  });
}

export async function openLoopBench(o: OpenLoopOptions): Promise<Row[]> {
  const bot = await startChildBot(o.url, o.prefix);
  try {
    // A few commands first: the replica's first requests load code paths and open the MCP session.
    for (let i = 0; i < 5; i++) {
      await bot.driver.slashCommand({ userId: 'U0OLWARM', command: '/mcp', text: 'servers' });
    }
    const phases = o.phases ?? ['submit', 'command'];
    const rows: Row[] = [];
    if (phases.includes('submit')) rows.push(await submitPhase(o, bot));
    if (phases.includes('command')) rows.push(await commandPhase(o, bot));
    return rows;
  } finally {
    await bot.close();
  }
}
