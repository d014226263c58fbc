// While the bot's Redis is down, every API route that needs it answers 503 `unavailable` with Retry-After
// (src/api/errors.ts: a client retries it), never 500 `internal`, which says the bot itself is at fault: one
// replica on a private redis-server (a free port), killed mid-test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, type Api } from '../system/api-support.js';
import { startHarness, type Harness } from '../system/harness.js';
import { startPrivateRedis, type PrivateRedis } from '../faults/support/redis-server.js';

const TOKEN = 'redis-down-token-0123456789';
const SCHEMA = { type: 'object', properties: { reason: { type: 'string' } } };

describe('the Automations API while Redis is down', () => {
  let h: Harness;
  let api: Api;
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis({ aof: false });
    h = await startHarness({ replicas: 1, redisUrl: redis.url, env: { ELICIT_RELAY_API_TOKEN: TOKEN } });
    api = apiOf(h, TOKEN);
  });
  afterAll(async () => {
    await redis.restart().catch(() => undefined);
    // Let the bot's connections come back before it stops (its stop reads Redis).
    for (let i = 0; i < 100; i++) {
      if ((await api('GET', '/questions/none').catch(() => undefined))?.status === 404) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      await h.close();
    } finally {
      await redis.stop();
    }
  });

  it(
    'answers 503 unavailable with Retry-After on every route that needs it',
    { timeout: 60_000 },
    async () => {
      const question = { message: 'Redis down?', requestedSchema: SCHEMA, to: { user: 'U1' } };
      const created = await api('POST', '/questions', { body: question });
      expect(created.status).toBe(201);
      const id = String(created.body.id);
      const echo = { server: 'fixture', tool: 'echo', arguments: { text: 'x' }, as: { user: 'U1' } };
      const call = await api('POST', '/calls', { body: echo });
      expect(call.status).toBe(202);
      expect((await api('GET', `/calls/${String(call.body.id)}?wait=20`)).body.status).toBe('completed');
      await redis.kill();
      const seen: Record<string, string> = {};
      const probe = async (label: string, method: string, path: string, opts: Parameters<Api>[2] = {}) => {
        const reply = await api(method, path, opts);
        const code = (reply.body.error as { code?: string } | undefined)?.code;
        seen[label] =
          `${reply.status} ${String(code)} retry-after ${String(reply.headers.get('retry-after'))}`;
      };
      await probe('POST /questions', 'POST', '/questions', { body: question });
      // `elicit-relay ask` always sends an Idempotency-Key.
      await probe('POST /questions with Idempotency-Key', 'POST', '/questions', {
        body: question,
        headers: { 'idempotency-key': 'down-1' },
      });
      await probe('GET /questions/{id}', 'GET', `/questions/${id}`);
      await probe('GET /questions/{id}?wait=2', 'GET', `/questions/${id}?wait=2`);
      await probe('DELETE /questions/{id}', 'DELETE', `/questions/${id}`);
      await probe('POST /calls', 'POST', '/calls', { body: echo });
      await probe('POST /calls with Idempotency-Key', 'POST', '/calls', {
        body: echo,
        headers: { 'idempotency-key': 'down-2' },
      });
      await probe('GET /calls/{id}', 'GET', `/calls/${String(call.body.id)}`);
      await probe('GET /audit', 'GET', '/audit');
      const expected = Object.fromEntries(Object.keys(seen).map((k) => [k, '503 unavailable retry-after 2']));
      expect(seen, 'each route while Redis is down').toEqual(expected);
    },
  );
});
