// A store that cannot answer now (Redis unreachable or refusing, this replica draining: a StoreError told by its
// code) is 503 `unavailable` with Retry-After on every operation, as the OpenAPI document declares, decided once
// in the router whichever dependency met it; any other failure is a fault of the bot: 500 `internal`, logged.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { API_PREFIX, apiRouter, type RouterDeps } from '../../src/api/router.js';
import { StoreError, type StoreErrorCode } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';
import { Contract, listen, openApiDoc, routerDeps, type Fakes } from './support.js';

const contract = new Contract(openApiDoc(openApiDocument(API_PREFIX)));
const QUESTION = {
  message: 'Ship it?',
  requestedSchema: { type: 'object', properties: {} },
  to: { user: 'U1' },
};
const CALL = { server: 'fixture', tool: 'echo', as: { user: 'U1' } };

/** Each operation's request, and the fake its failure comes from. */
const OPERATIONS: {
  method: string;
  template: string;
  path: string;
  body?: unknown;
  failing: (fail: () => Promise<never>) => Fakes;
}[] = [
  {
    method: 'POST',
    template: '/questions',
    path: '/questions',
    body: QUESTION,
    failing: (open) => ({ questions: { open } }),
  },
  {
    method: 'GET',
    template: '/questions/{id}',
    path: '/questions/q1',
    failing: (get) => ({ questions: { get } }),
  },
  {
    method: 'GET',
    template: '/questions/{id}',
    path: '/questions/q1?wait=5',
    failing: (get) => ({ questions: { get } }),
  },
  {
    method: 'DELETE',
    template: '/questions/{id}',
    path: '/questions/q1',
    failing: (get) => ({ questions: { get } }),
  },
  {
    method: 'POST',
    template: '/calls',
    path: '/calls',
    body: CALL,
    failing: (start) => ({ calls: { start } }),
  },
  { method: 'GET', template: '/calls/{id}', path: '/calls/call_1', failing: (get) => ({ calls: { get } }) },
  { method: 'GET', template: '/audit', path: '/audit', failing: (list) => ({ audit: { list } }) },
];

let redis: Redis;
let server: Awaited<ReturnType<typeof listen>> | undefined;
beforeAll(() => {
  redis = new Redis(redisUrl());
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  redis.disconnect();
});

async function serve(deps: RouterDeps): Promise<NonNullable<typeof server>> {
  server = await listen(apiRouter(deps));
  return server;
}

describe('an API operation whose store cannot answer', () => {
  const codes: StoreErrorCode[] = ['redis_unavailable', 'redis_error', 'draining'];
  it.each(codes)(
    'answers 503 unavailable with Retry-After for a StoreError %s, on every operation',
    async (code) => {
      const fail = () => Promise.reject(new StoreError(code, `${code} (a message no code reads)`));
      for (const op of OPERATIONS) {
        const api = await serve(routerDeps(redis, op.failing(fail)));
        const reply = await api.request(op.method, op.path, { body: op.body });
        const label = `${op.method} ${op.path}`;
        expect([label, reply.status, reply.body.error]).toEqual([
          label,
          503,
          { code: 'unavailable', message: expect.any(String) as string },
        ]);
        expect(reply.headers.get('retry-after')).toBe('2');
        expect(contract.problems(op.method, op.template, reply)).toEqual([]);
        await api.close();
      }
    },
  );

  it('answers 503 for a create with an Idempotency-Key whose key Redis cannot keep', async () => {
    // Nothing listens on port 1; with no offline queue each command fails at once, as on a dropped connection.
    const down = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const api = await serve(
      routerDeps(down, {
        questions: { open: () => Promise.reject(new Error('created without its key')) },
        calls: { start: () => Promise.reject(new Error('started without its key')) },
      }),
    );
    for (const [path, body] of [
      ['/questions', QUESTION],
      ['/calls', CALL],
    ] as const) {
      const reply = await api.request('POST', path, { body, headers: { 'idempotency-key': 'k1' } });
      expect([path, reply.status, (reply.body.error as { code?: string }).code]).toEqual([
        path,
        503,
        'unavailable',
      ]);
      expect(contract.problems('POST', path, reply)).toEqual([]);
    }
    down.disconnect();
  });
});

describe('an API operation that fails for any other reason', () => {
  const faults: [string, () => Error][] = [
    [
      'a StoreError whose code says the record is bad',
      () => new StoreError('bad_record', 'Question q1: bad'),
    ],
    ['a bug (TypeError)', () => new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a plain Error whose message reads like an outage', () => new Error('Redis unavailable during get')],
  ];
  it.each(faults)('answers 500 internal for %s, and logs it', async (_, fault) => {
    const logged: string[] = [];
    const api = await serve(
      routerDeps(redis, {
        questions: { get: () => Promise.reject(fault()) },
        logger: { error: (_obj, msg) => logged.push(msg) },
      }),
    );
    const reply = await api.request('GET', '/questions/q1');
    expect([reply.status, (reply.body.error as { code?: string }).code]).toEqual([500, 'internal']);
    expect(contract.problems('GET', '/questions/{id}', reply)).toEqual([]);
    expect(logged).toEqual(['API request failed']);
  });
});
