// A write that reaches a replica answers READONLY: after a failover the old master comes back as a replica while
// the bot still writes to it (a managed endpoint not yet moved, or ioredis's Sentinel client between READONLY and
// its reconnect). Redis refuses the command, or a script at its first write, before anything is written, so a
// person who presses Send is told the answer was NOT saved (not that it "may not have been"), a Decline that it
// was NOT recorded, and an API create is answered 503 `unavailable`; once the node is a master again the same
// Send relays the answer. Two private redis-servers fail over by hand (REPLICAOF), the bot on the first.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { until } from '../support/until.js';
import { openForm, startHarness, type Harness } from '../system/harness.js';
import { newQuestion, openStore } from '../store/helpers.js';
import { Records } from './support/records.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';

const NOT_SAVED =
  'Your answer was NOT saved (a temporary problem on our side). Press Send again in a moment.';
const NOT_RECORDED = 'That was NOT recorded (a temporary problem on our side). Please try again in a moment.';
const API_TOKEN = 'read-only-api-token-0123456789';
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};

let first: PrivateRedis;
let second: PrivateRedis;
let raw: { first: Redis; second: Redis };
let h: Harness;
let records: Records;
const logs = captureLogs('debug');
printLogsOnFailure(logs);

beforeAll(async () => {
  [first, second] = await Promise.all([startPrivateRedis({ aof: false }), startPrivateRedis({ aof: false })]);
  raw = { first: new Redis(first.url), second: new Redis(second.url) };
  h = await startHarness({
    redisUrl: first.url,
    logger: logs.logger,
    env: { ELICIT_RELAY_API_TOKEN: API_TOKEN },
  });
  // The second serves as master from the failover on: the records are read there.
  records = new Records(second.url, h.prefix);
});

afterAll(async () => {
  records.close();
  await h.close();
  raw.first.disconnect();
  raw.second.disconnect();
  await Promise.all([first.stop(), second.stop()]);
});

/** Whether `redis` is a replica whose link to its master is up (it has loaded the master's data). */
async function syncedReplica(redis: Redis): Promise<boolean> {
  return /master_link_status:up/.test(await redis.info('replication'));
}

/**
 * The failover a Sentinel makes: the second becomes a replica of the first and catches up, then is promoted, and
 * the first (where the bot still writes) becomes its replica, with every write the first had acknowledged.
 */
async function failOver(): Promise<void> {
  await raw.second.replicaof('127.0.0.1', first.port);
  await until('the second has synced with the first', 10_000, () => syncedReplica(raw.second));
  expect(Number(await raw.first.call('WAIT', '1', '2000'))).toBe(1);
  await raw.second.replicaof('NO', 'ONE');
  await raw.first.replicaof('127.0.0.1', second.port);
  await until('the first has synced with the second', 10_000, () => syncedReplica(raw.first));
}

/** The first serves as master again (the failover back). */
async function failBack(): Promise<void> {
  await raw.first.replicaof('NO', 'ONE');
  await raw.second.replicaof('127.0.0.1', first.port);
  await until('the second has synced with the first', 10_000, () => syncedReplica(raw.second));
}

async function createByApi(): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${h.relay.port}/api/v1/questions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'Ship?', requestedSchema: SCHEMA, to: { user: 'U3' } }),
  });
  return { status: response.status, body: await response.json() };
}

describe('a write that reaches a read-only replica (READONLY)', () => {
  it('tells the person NOT saved / NOT recorded, answers the API 503, and relays the answer once failed back', async () => {
    const store = await openStore(`${h.prefix}-store`, 'holder-ro', { url: first.url });
    const stored = await store.create(newQuestion());
    const card = await h.ask('U1', SCHEMA);
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    const viewId = await openForm(h, 'U1', card);
    const view = h.standin.view(viewId)?.view as { blocks: { type: string; block_id: string }[] };
    const block = view.blocks.find((b) => b.type === 'input')?.block_id ?? '';

    await failOver();
    await expect(
      store.finish(stored.id, { action: 'accept', content: { ok: true } }, 'answered', 'U123'),
    ).rejects.toMatchObject({ name: 'StoreError', code: 'redis_try_again' });
    const sent = await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'Ada' } });
    expect(sent.json).toEqual({ response_action: 'errors', errors: { [block]: NOT_SAVED } });
    expect(h.standin.openViews('U1').map((v) => v.id)).toEqual([viewId]);
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    await h.standin.waitForCall('response_url', (c) => JSON.stringify(c.args).includes(NOT_RECORDED));
    expect((await records.question(id)).state).toBe('pending');
    expect(await createByApi()).toMatchObject({ status: 503, body: { error: { code: 'unavailable' } } });

    await failBack();
    const again = await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'Ada' } });
    expect(again.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { name: 'Ada' } });
  }, 40_000);
});
