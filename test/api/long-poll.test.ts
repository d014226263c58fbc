// A long-poll costs nothing once its client has gone: the request's subscription to the question's end is
// cancelled when the connection closes, well before its wait runs out.
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

describe('a long-poll whose client disconnects', () => {
  it('drops its subscription at once', async () => {
    const { promise: onSubscribe, resolve: subscribed } = deferred();
    const { promise: onCancel, resolve: cancelled } = deferred();
    redis = new Redis(redisUrl());
    const handler = apiRouter({
      clients: new Clients([{ name: 'ci', token: 'tok' }]),
      logger: { error: () => undefined },
      questions: {
        open: () => Promise.reject(new Error('not asked')),
        get: () => Promise.resolve(PENDING),
        end: () => Promise.reject(new Error('not ended')),
        checkSchema: () => undefined,
        timeoutMs: () => 1000,
        refuseCallback: () => undefined,
        idempotency: new Idempotency(redis, (client, key) => `unused:${client}:${key}`, systemClock),
        clock: systemClock,
        ended: {
          subscribe: () => {
            subscribed();
            return { ended: new Promise<void>(() => undefined), cancel: () => cancelled() };
          },
        },
      },
    });
    server = createServer(handler);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const abort = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}/api/v1/questions/q1?wait=60`, {
      headers: { authorization: 'Bearer tok' },
      signal: abort.signal,
    }).catch((error: unknown) => error);
    await onSubscribe;
    const asked = Date.now();
    abort.abort();
    await onCancel;
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(await request).toBeInstanceOf(Error);
  });
});
