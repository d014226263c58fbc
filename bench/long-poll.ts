// 1,000 long-poll waiters (`GET …?wait=60`) on one replica: the bot's RSS and heap growth per waiter, and the
// wake-up of each waiter after its question ends, beside a raw XADD → blocking XREAD wake-up on the same
// Redis (the floor: the store's own outcome delivery cannot be faster than that).
// The waiters live in a child process (bench/waiters.ts), so the bot's process carries only their server side.
// Memory is read once full GCs give nothing more back (`released`, as goal 5b reads it: RSS after a single GC
// counts pages already free, and moved by ±15 KB per waiter between runs of the same code); a second child then
// holds as many again, so the slope (the cost of each further waiter) shows apart from V8's one-time growth.
// One waiter per question, 1,000 questions: they are written straight into the store as Relay.open writes an
// API question, without a card (1,000 cards would be 2,000 outbox calls, conversations.open + chat.postMessage,
// at the outbox's 10 calls/s, before the run could start); a long-poll reads only the record.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { apiServerName } from '../src/relay/sources/intake.js';
import { QuestionStore } from '../src/store/index.js';
import { SCHEMA, withdraw, type Api } from './api-client.js';
import type { EndWatch } from './end-watch.js';
import { released } from './memory.js';
import { row, summarize, type Row } from './stats.js';

const WAITERS = new URL('./waiters.ts', import.meta.url).pathname;
/** Each question's timeout, ms: longer than the run, so only the bench ends them. */
const QUESTION_TIMEOUT_MS = 30 * 60_000;
/** Sequential no-op reads after the child sent every request, so the bot has subscribed them all. */
const SETTLE_READS = 3;
const KB = 1024;

export interface LongPollOptions {
  url: string;
  prefix: string;
  api: Api;
  token: string;
  /** The API client `token` stands for (the questions are its own). */
  client: string;
  count: number;
  watch: EndWatch;
}

type Memory = ReturnType<typeof released>;

/** The child holding the waiters: resolves `sent` once every request is out; `done(id)` gives its answer time. */
function startWaiters(
  base: string,
  token: string,
  ids: string[],
): { child: ChildProcess; sent: Promise<void>; done(id: string, count: number): Promise<number[]> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WAITERS], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answered = new Map<string, number[]>();
  const waiting = new Map<string, { left: number; resolve: (ms: number[]) => void }>();
  let markSent = (): void => undefined;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  createInterface({ input: child.stdout ?? process.stdin }).on('line', (line) => {
    if (line === 'sent') return markSent();
    const [, id = '', ms = '', http = '', status = ''] = line.split(' ');
    // A waiter whose wait ran out (still pending) or failed would make the timing meaningless.
    if (http !== '200' || status !== 'cancelled')
      throw new Error(`waiter on ${id} answered ${http} ${status}`);
    const times = [...(answered.get(id) ?? []), Number(ms)];
    answered.set(id, times);
    const waiter = waiting.get(id);
    if (waiter && times.length === waiter.left) waiter.resolve(times);
  });
  child.stdin?.end(`${JSON.stringify({ base, token, ids })}\n`);
  return {
    child,
    sent,
    /** The answer times of `count` waiters on `id`, once all of them answered. */
    done: (id, count) => {
      const times = answered.get(id) ?? [];
      if (times.length === count) return Promise.resolve(times);
      return new Promise((resolve) => waiting.set(id, { left: count, resolve }));
    },
  };
}

/** One raw XADD on one connection until a blocking XREAD on another returns it, in µs. */
async function xreadFloor(
  writer: Redis,
  reader: Redis,
  key: string,
  lastId: string,
): Promise<[number, string]> {
  const read = reader.xread('BLOCK', 5_000, 'STREAMS', key, lastId);
  const t0 = performance.now();
  await writer.xadd(key, 'MAXLEN', '~', '1000', '*', 'id', 'x');
  const reply = await read;
  const us = (performance.now() - t0) * 1000;
  return [us, reply?.[0]?.[1][0]?.[0] ?? lastId];
}

/** `count` API questions of `o.client`, stored as Relay.open stores them (detached), without cards. */
async function createQuestions(o: LongPollOptions, count: number): Promise<string[]> {
  const store = await QuestionStore.open({ url: o.url, prefix: o.prefix, holderId: 'bench-long-poll' });
  try {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const user = `U0WAIT${i}`;
      const question = await store.create({
        server: apiServerName(o.client),
        client: o.client,
        source: 'api',
        userId: user,
        origin: { userId: o.client },
        message: 'Deploy?',
        requestedSchema: SCHEMA,
        timeoutMs: QUESTION_TIMEOUT_MS,
        place: { dm: user },
      });
      ids.push(question.id);
    }
    return ids;
  } finally {
    await store.close();
  }
}

/** Ends each question in turn (DELETE: Relay.end) and times its waiter's answer from the end, in ms. */
async function endEach(
  o: LongPollOptions,
  waiters: ReturnType<typeof startWaiters>,
  floorOnce: () => Promise<number>,
  ids: string[],
): Promise<{ wake: number[]; floor: number[] }> {
  const wake: number[] = [];
  const floor: number[] = [];
  for (const id of ids) {
    floor.push(await floorOnce());
    const answered = waiters.done(id, 1);
    await withdraw(o.api, id);
    const endedAt = await o.watch.ended(id);
    wake.push(...(await answered).map((ms) => ms - endedAt));
  }
  return { wake, floor };
}

/**
 * The floor of a waiter's memory: a bare node:http server holding the same number of requests from the same
 * child, answering none until all are counted (the sockets, parsers, request and response objects every
 * long-poll costs, with no bot behind it).
 */
async function bareHoldFloor(count: number): Promise<{ before: Memory; holding: Memory }> {
  const open: ServerResponse[] = [];
  let all = (): void => undefined;
  const counted = new Promise<void>((resolve) => (all = resolve));
  const server = createServer((_req, res) => {
    if (open.push(res) === count) all();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const before = released();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const waiters = startWaiters(
    base,
    '-',
    Array.from({ length: count }, (_, i) => `floor${i}`),
  );
  try {
    await counted;
    const holding = released();
    for (const res of open) res.end('{"status":"cancelled"}');
    return { before, holding };
  } finally {
    waiters.child.kill();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** Memory before any waiter, with `count` held, and with `2 × count` held. */
interface Held {
  before: Memory;
  holding: Memory;
  doubled: Memory;
}

function memoryRows(count: number, floor: { before: Memory; holding: Memory }, m: Held): Row[] {
  const perWaiter = (name: string, bytes: number, note: string): Row => ({
    group: 'long-poll',
    name,
    n: count,
    p50: Math.round(bytes / count),
    p95: Number.NaN,
    p99: Number.NaN,
    max: Number.NaN,
    unit: 'bytes',
    note,
  });
  const rss = m.holding.rss - m.before.rss;
  const slope = m.doubled.rss - m.holding.rss;
  const floorHeap = (floor.holding.heap - floor.before.heap) / count;
  return [
    perWaiter(
      `bare node:http server holding ${count} requests, heap growth per request = floor`,
      floor.holding.heap - floor.before.heap,
      `RSS ${mb(floor.before.rss)} → ${mb(floor.holding.rss)}`,
    ),
    perWaiter(
      `RSS growth per waiter, ${count} held (goal ≤ 10 KB)`,
      rss,
      `RSS ${mb(m.before.rss)} → ${mb(m.holding.rss)} (${(rss / count / KB).toFixed(1)} KB per waiter); ` +
        `after a single full GC ${mb(m.holding.rssAfterOneGc)}`,
    ),
    perWaiter(
      `RSS slope per waiter, ${count} → ${2 * count} held`,
      slope,
      `RSS ${mb(m.holding.rss)} → ${mb(m.doubled.rss)}: the cost of each further waiter, without V8's one-time growth`,
    ),
    {
      ...perWaiter(
        `heap growth per waiter, ${count} held`,
        m.holding.heap - m.before.heap,
        `heap ${mb(m.before.heap)} → ${mb(m.holding.heap)}; ${mb(m.doubled.heap)} with ${2 * count}`,
      ),
      xFloor: (m.holding.heap - m.before.heap) / count / floorHeap,
    },
  ];
}

/**
 * Holds `ids` as well, reads memory once the bot has them all, and lets them go: the child is killed, and the
 * bot has seen their connections close before the wake-up timing starts.
 */
async function alsoHold(o: LongPollOptions, ids: string[], known: string): Promise<Memory> {
  const more = startWaiters(o.api.base, o.token, ids);
  try {
    await more.sent;
    await settle(o, known);
    return released();
  } finally {
    const exited = once(more.child, 'exit');
    more.child.kill();
    await exited;
    await settle(o, known);
  }
}

/** Sequential no-op reads, so the bot has taken every request already sent. */
async function settle(o: LongPollOptions, id: string): Promise<void> {
  for (let i = 0; i < SETTLE_READS; i++) await o.api.request('GET', `/api/v1/questions/${id}`);
}

export async function longPollBench(o: LongPollOptions): Promise<Row[]> {
  const floorMemory = await bareHoldFloor(o.count);
  const all = await createQuestions(o, 2 * o.count);
  const [ids, more] = [all.slice(0, o.count), all.slice(o.count)];
  const before = released();
  const waiters = startWaiters(o.api.base, o.token, ids);
  const writer = new Redis(o.url);
  const reader = new Redis(o.url);
  const key = `${o.prefix}:bench-floor-stream`;
  let lastId = '0-0';
  const floorOnce = async (): Promise<number> => {
    const [us, last] = await xreadFloor(writer, reader, key, lastId);
    lastId = last;
    return us / 1000;
  };
  try {
    await waiters.sent;
    await settle(o, ids[0] ?? '');
    const holding = released();
    const doubled = await alsoHold(o, more, ids[0] ?? '');
    const woken = await endEach(o, waiters, floorOnce, ids);
    const floor = summarize(woken.floor);
    return [
      ...memoryRows(o.count, floorMemory, { before, holding, doubled }),
      row('long-poll', 'raw XADD → blocking XREAD wake-up = floor', floor, { unit: 'ms' }),
      row(
        'long-poll',
        `end → its waiter's answer, ${o.count} held (goal p99 ≤ 50 ms)`,
        summarize(woken.wake),
        {
          unit: 'ms',
          floorP50: floor.p50,
          note: `${o.count} questions with one waiter each, ended one at a time while the others wait`,
        },
      ),
    ];
  } finally {
    waiters.child.kill();
    writer.disconnect();
    reader.disconnect();
  }
}
