// A long-poll costs nothing once its client has gone: the request's listener for the question's end is
// dropped when the connection closes, well before its wait runs out. A question gone by the end of the wait is
// answered as gone (404), not with the record read before the wait (nothing of it is kept meanwhile); one not
// there when asked, at once, not after its wait. A held
// request answers on the first of its question's end and its wait running out, and leaves neither the listener
// nor the timer behind.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { Clients } from '../../src/api/auth.js';
import { Idempotency } from '../../src/api/idempotency.js';
import { apiRouter } from '../../src/api/router.js';
import { systemClock } from '../../src/clock.js';
import type { RelayClock } from '../../src/relay/relay.js';
import type { Question } from '../../src/relay/types.js';
import { redisUrl } from '../setup/context.js';
import { question } from '../support/question.js';
import { deferred } from '../support/deferred.js';
import { steppedClock } from '../support/stepped-clock.js';

const PENDING: Question = question({
  id: 'q1',
  server: 'api:ci',
  client: 'ci',
  origin: { userId: 'ci' },
  message: 'Ship it?',
  timeoutMs: 600_000,
  holder: '-',
  deadline: 600_000,
});

let server: Server | undefined;
let redis: Redis | undefined;
afterEach(async () => {
  redis?.disconnect();
  await new Promise((resolve) => server?.close(resolve));
});

/** A question's end as the API's long-poll listens for it. */
interface Ends {
  listen(id: string, wake: () => void): void;
  unlisten(id: string, wake: () => void): void;
}

/** The API on a local server whose questions are read by `get` and whose ends come from `ended`. */
async function apiWith(
  get: () => Promise<Question | undefined>,
  ended: Ends,
  clock: RelayClock = systemClock,
): Promise<string> {
  redis = new Redis(redisUrl());
  const handler = apiRouter({
    clients: new Clients([{ name: 'ci', token: 'tok' }]),
    logger: { error: () => undefined },
    questions: {
      open: () => Promise.reject(new Error('not asked')),
      get,
      end: () => Promise.reject(new Error('not ended')),
      checkSchema: () => undefined,
      timeoutMs: () => 1000,
      refuseCallback: () => undefined,
      idempotency: new Idempotency(redis, (client, key) => `unused:${client}:${key}`, systemClock),
      clock,
      ended: {
        ...ended,
        subscribe: () => ({ ended: new Promise<void>(() => undefined), cancel: () => undefined }),
      },
    },
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/api/v1/questions/q1?wait=60`;
}

describe('a long-poll whose client disconnects', () => {
  it('drops its listener at once', async () => {
    const { promise: onSubscribe, resolve: subscribed } = deferred();
    const { promise: onCancel, resolve: cancelled } = deferred();
    let listening: (() => void) | undefined;
    const url = await apiWith(() => Promise.resolve(PENDING), {
      listen: (_id, wake) => {
        listening = wake;
        subscribed();
      },
      unlisten: (_id, wake) => {
        if (wake === listening) cancelled();
      },
    });
    const abort = new AbortController();
    const request = fetch(url, { headers: { authorization: 'Bearer tok' }, signal: abort.signal }).catch(
      (error: unknown) => error,
    );
    await onSubscribe;
    const asked = Date.now();
    abort.abort();
    await onCancel;
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(await request).toBeInstanceOf(Error);
  });
});

describe('a long-poll whose question is gone when its wait ends', () => {
  it('is answered 404 not_found', async () => {
    const { promise: ended, resolve: end } = deferred();
    // Pending at the read right after listening; gone at the read after the wait.
    const reads = [PENDING];
    const url = await apiWith(() => Promise.resolve(reads.shift()), {
      listen: (_id, wake) => void ended.then(wake),
      unlisten: () => undefined,
    });
    end();
    const response = await fetch(url, { headers: { authorization: 'Bearer tok' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('a long-poll on a question that is not there', () => {
  it('is answered 404 at once, not once its wait runs out', async () => {
    const clock = steppedClock();
    let unlistened = false;
    const url = await apiWith(
      () => Promise.resolve(undefined),
      { listen: () => undefined, unlisten: () => (unlistened = true) },
      clock,
    );
    const response = await fetch(url, { headers: { authorization: 'Bearer tok' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    expect([unlistened, clock.pending()]).toEqual([true, 0]);
  });
});

describe('a held long-poll', () => {
  const auth = { headers: { authorization: 'Bearer tok' } };

  it('answers with the question still pending once its wait runs out, and stops listening', async () => {
    const clock = steppedClock();
    const { promise: listening, resolve: listened } = deferred();
    let unlistened = false;
    const url = await apiWith(
      () => Promise.resolve(PENDING),
      { listen: () => listened(), unlisten: () => (unlistened = true) },
      clock,
    );
    const response = fetch(url, auth);
    await listening;
    await clock.advance(59_999);
    expect(unlistened).toBe(false);
    await clock.advance(1);
    expect((await response).status).toBe(200);
    expect(await (await response).json()).toMatchObject({ id: 'q1', status: 'pending' });
    expect(unlistened).toBe(true);
  });

  it('answers with the ended question once its end wakes it, and cancels its timer', async () => {
    const clock = steppedClock();
    const { promise: listening, resolve: listened } = deferred<() => void>();
    const ended: Question = { ...PENDING, state: 'accepted', outcome: { action: 'accept', content: {} } };
    // Pending at the read right after listening; ended at the read once woken.
    const reads = [PENDING, ended];
    const url = await apiWith(
      () => Promise.resolve(reads.shift()),
      { listen: (_id, wake) => listened(wake), unlisten: () => undefined },
      clock,
    );
    const response = fetch(url, auth);
    const wake = await listening;
    expect(clock.pending()).toBe(1);
    wake();
    expect(await (await response).json()).toMatchObject({ id: 'q1', status: 'accepted' });
    expect(clock.pending()).toBe(0);
  });
});
