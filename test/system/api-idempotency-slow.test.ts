// An Idempotency-Key whose first request takes longer than 10 s (PRODUCT "Automations contract": the same key
// with the same body returns the same question): a question to a user group whose member lookup Slack
// rate-limits for 11 s is still being created when the client retries 10.5 s later; the retry waits for it
// and answers 200 with the same question instead of creating a second one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { apiOf, type Api } from './api-support.js';
import { startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-idempotency-slow-0123456789';

describe('an Idempotency-Key retried while its first request still creates', () => {
  let h: Harness;
  let api: Api;
  beforeAll(async () => {
    h = await startHarness({
      replicas: 1,
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      workspace: { usergroups: { S0ONCALL: ['U4', 'U5'] } },
    });
    api = apiOf(h, TOKEN);
  });
  afterAll(async () => {
    await h.close();
  });

  it(
    'returns the first question (200, same id) to a retry 10.5 s later, creating no second one',
    { timeout: 40_000 },
    async () => {
      h.standin.failNext('usergroups.users.list', 'ratelimited', { retryAfterSec: 11 });
      const body = {
        message: 'Page the on-call for deploy 4711?',
        requestedSchema: { type: 'object', properties: {} },
        to: { usergroup: 'S0ONCALL' },
      };
      const headers = { 'idempotency-key': 'deploy-4711' };
      const first = api('POST', '/questions', { body, headers });
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      const retry = await api('POST', '/questions', { body, headers });
      const created = await first;
      expect(created.status).toBe(201);
      expect(retry.status).toBe(200);
      expect(retry.body.id).toBe(created.body.id);
      // One card: a second question would have posted its own by the time the first's is seen and 1 s more.
      const isCard = (c: RecordedCall): boolean =>
        c.method === 'chat.postMessage' && c.ok && JSON.stringify(c.args.blocks).includes('deploy 4711');
      await h.standin.waitForCall('chat.postMessage', isCard, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(h.standin.calls.filter(isCard)).toHaveLength(1);
    },
  );
});
