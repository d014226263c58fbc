// A long-poll costs nothing once its client has gone: the request's subscription to the question's end is
// cancelled when the connection closes, well before its wait runs out. And a question gone by the end of the
// wait is answered as gone (404), not with the record read before the wait (nothing of it is kept meanwhile).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { Clients } from '../../src/api/auth.js';
import { Idempotency } from '../../src/api/idempotency.js';
import { apiRouter } from '../../src/api/router.js';
import { systemClock } from '../../src/clock.js';
import type { Question } from '../../src/relay/types.js';
import { redisUrl } from '../setup/context.js';
import { question } from '../support/question.js';
import { deferred } from '../support/deferred.js';

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

/** The API on a local server whose questions are read by `get` and whose ends come from `subscribe`. */
async function apiWith(
  get: () => Promise<Question | undefined>,
  subscribe: () => { ended: Promise<void>; cancel: () => void },
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
      clock: systemClock,
      ended: { subscribe },
    },
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/api/v1/questions/q1?wait=60`;
}

describe('a long-poll whose client disconnects', () => {
  it('drops its subscription at once', async () => {
    const { promise: onSubscribe, resolve: subscribed } = deferred();
    const { promise: onCancel, resolve: cancelled } = deferred();
    const url = await apiWith(
      () => Promise.resolve(PENDING),
      () => {
        subscribed();
        return { ended: new Promise<void>(() => undefined), cancel: () => cancelled() };
      },
    );
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
    // Pending at the first read and at the read right after subscribing; gone at the read after the wait.
    const reads = [PENDING, PENDING];
    const url = await apiWith(
      () => Promise.resolve(reads.shift()),
      () => {
        end();
        return { ended, cancel: () => undefined };
      },
    );
    const response = await fetch(url, { headers: { authorization: 'Bearer tok' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
