// Shared bits for the store tests: stores on a test prefix, a raw client for inspection, and promises
// that resolve when a callback fires (so tests await events instead of sleeping).
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import type { NewQuestion, Question } from '../../src/relay/types.js';
import { keys, type RedisClient } from '../../src/redis/index.js';
import { Inbox, type InboxDeps } from '../../src/store/inbox.js';
import { QuestionStore, type StoreLogger, type StoreOptions } from '../../src/store/index.js';
import { SLOT_MS, slotOf } from '../../src/store/slots.js';
import { redisUrl } from '../setup/context.js';
import { deferred } from '../support/deferred.js';

const opened: { close(): Promise<unknown> }[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((x) => x.close()));
});

export interface Logged {
  level: 'warn' | 'info';
  obj: object;
  msg: string;
}

/** A logger that records what it is told. */
export function recordingLogger(): StoreLogger & { logged: Logged[] } {
  const logged: Logged[] = [];
  return {
    logged,
    warn: (obj, msg) => logged.push({ level: 'warn', obj, msg }),
    info: (obj, msg) => logged.push({ level: 'info', obj, msg }),
  };
}

/** Opens a store that the test's afterEach closes. */
export async function openStore(
  prefix: string,
  holderId: string,
  extra: Partial<Extract<StoreOptions, { url: string }>> = {},
): Promise<QuestionStore> {
  const store = await QuestionStore.open({
    url: redisUrl(),
    prefix,
    holderId,
    logger: recordingLogger(),
    ...extra,
  });
  opened.push(store);
  return store;
}

/** A plain client for looking at Redis from outside the store; closed by afterEach. */
export function rawRedis(): Redis {
  const redis = new Redis(redisUrl());
  opened.push({ close: () => redis.quit() });
  return redis;
}

export function newQuestion(overrides: Partial<NewQuestion> = {}): NewQuestion {
  return {
    server: 'fixture',
    userId: 'U123',
    origin: { userId: 'U123', teamId: 'T1', channelId: 'C1' },
    message: 'Deploy to production?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    timeoutMs: 60_000,
    ...overrides,
  };
}

/** Collects values pushed to a callback and lets a test await the n-th one. */
export function collector<T>(): { push(value: T): void; values: T[]; next(count: number): Promise<T[]> } {
  const values: T[] = [];
  const waiters: { count: number; resolve(v: T[]): void }[] = [];
  return {
    values,
    push(value) {
      values.push(value);
      for (const w of waiters.filter((w) => values.length >= w.count)) w.resolve([...values]);
    },
    next(count) {
      if (values.length >= count) return Promise.resolve([...values]);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
}

/** Every key matching a SCAN pattern. */
export async function scanAll(redis: RedisClient, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    found.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

export async function redisTimeMs(redis: RedisClient): Promise<number> {
  const [sec, micro] = await redis.time();
  return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
}

/**
 * Waits, when the deadline slot (store/slots.ts) of deadlines up to `ms` ahead would end within them, for the
 * next slot to start, so questions created now with timeouts up to `ms` share one slot.
 */
export async function slotRoom(redis: RedisClient, ms: number): Promise<void> {
  const now = await redisTimeMs(redis);
  const left = (slotOf(now) + 1) * SLOT_MS - now;
  if (left <= ms) await new Promise((resolve) => setTimeout(resolve, left + 1));
}

/** Starts `store`'s timeouts and collects each question it times out (its finish won), at Redis's time (ms). */
export async function timedOut(
  store: QuestionStore,
  redis: RedisClient,
): Promise<ReturnType<typeof collector<{ id: string; at: number }>>> {
  const due = collector<{ id: string; at: number }>();
  await store.startTimeouts(async (id) => {
    const at = await redisTimeMs(redis);
    if ((await store.finish(id, { action: 'cancel' }, 'timed_out')).won) due.push({ id, at });
  });
  return due;
}

/** CLIENT LIST ids of the connections with this exact name. */
export async function clientIds(redis: RedisClient, name: string): Promise<string[]> {
  const list = (await redis.client('LIST')) as string;
  return list
    .split('\n')
    .filter((line) => line.split(' ').includes(`name=${name}`))
    .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1] ?? '')
    .filter((id) => id !== '');
}

/** A command Redis ran, as MONITOR shows it: who sent it ('lua' for a script's own) and its arguments. */
export interface Monitored {
  source: string;
  args: string[];
}

/** One MONITOR line (`+<time> [<db> <source>] "arg" ...`); undefined for anything else. */
function monitorLine(line: string): Monitored | undefined {
  const head = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] /.exec(line);
  if (!head) return undefined;
  const quoted = line.slice(head[0].length).matchAll(/"((?:[^"\\]|\\.)*)"/g);
  return { source: head[1] ?? '', args: [...quoted].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1')) };
}

/**
 * The commands Redis runs while `run` runs (MONITOR), including those scripts make. MONITOR lines trail the
 * commands, so an ECHO sent through `probe` after `run` marks the end. A plain socket, not ioredis's monitor():
 * that one sets its monitoring state a tick after MONITOR's OK, and on a busy Redis the first lines in the same
 * read are taken for replies ("Command queue state error").
 */
export async function monitored(probe: Redis, run: () => Promise<unknown>): Promise<Monitored[]> {
  const { hostname, port } = new URL(redisUrl());
  const socket = connect(Number(port || 6379), hostname);
  const marker = `end-${Math.random()}`;
  const sent: Monitored[] = [];
  let pending = '';
  const { promise: ok, resolve: started } = deferred();
  const { promise: done, resolve: ended } = deferred();
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\r\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '+OK') started();
      const command = monitorLine(line);
      if (command?.args[0]?.toLowerCase() === 'echo' && command.args[1] === marker) ended();
      else if (command) sent.push(command);
    }
  });
  try {
    socket.write('MONITOR\r\n');
    await ok;
    await run();
    await probe.echo(marker);
    await done;
    return sent;
  } finally {
    socket.destroy();
  }
}

/** An Inbox on `redis` reading holder `holderId`'s stream under `prefix`, handing each end to `onOutcome`. */
export function inboxOf(
  prefix: string,
  holderId: string,
  deps: { redis: InboxDeps['redis']; logger: StoreLogger },
  onOutcome: (question: Question) => void,
): Inbox {
  const k = keys(prefix);
  const { redis, logger } = deps;
  const streamKey = k.inbox(holderId);
  const schemaPrefix = k.schema('');
  return new Inbox(
    { redis, streamKey, questionKey: (id) => k.question(id), schemaPrefix, logger },
    onOutcome,
  );
}
