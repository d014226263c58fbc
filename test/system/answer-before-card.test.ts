// A person answers a question before its card's attach lands (they respond from the App Home while Slack has
// not yet answered the card's post): the finish's winner sees no card, the holder hands the answer to the MCP
// server and acknowledges it, and only then is the card attached; its poster draws the end. The ended card must
// still say what was answered, and the answer's content must not outlive that drawing.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keys } from '../../src/redis/index.js';
import type { RecordedCall } from '../../src/standin/index.js';
import { DROPPED_OUTCOME } from '../../src/store/scripts.js';
import { redisUrl } from '../setup/context.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = {
  type: 'object',
  properties: {
    env: { type: 'string', title: 'Environment', oneOf: [{ const: 'prod', title: 'Production' }] },
  },
  required: ['env'],
};
const USER = 'UABC1';

type Block = { type: string; block_id?: string; elements?: { action_id?: string; value?: string }[] };

/** The question ids of the Respond buttons on a published Home view. */
const respondIds = (call: RecordedCall): string[] =>
  ((call.args.view as { blocks: Block[] }).blocks ?? [])
    .flatMap((b) => b.elements ?? [])
    .filter((e) => e.action_id === 'elicit_respond')
    .map((e) => e.value ?? '');

describe('an answer given before its card is attached', () => {
  let h: Harness;
  let redis: Redis;
  beforeAll(async () => {
    h = await startHarness();
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await redis.quit();
    await h.close();
  });

  /** Resolves once the holder's inbox has acknowledged the question's end (its entry deleted, see inbox.ts). */
  async function acknowledged(id: string): Promise<void> {
    const k = keys(h.prefix);
    await vi.waitFor(
      async () => {
        const [state, holder] = await redis.hmget(k.question(id), 'state', 'holder');
        expect(state).toBe('accepted');
        expect(await redis.xlen(k.inbox(holder ?? ''))).toBe(0);
      },
      { timeout: 10_000, interval: 20 },
    );
  }

  it('shows the answer on the card its poster updates, then keeps no content', async () => {
    const held = h.standin.holdNext('chat.postMessage');
    const asked = h.ask(USER, SCHEMA, 'Ship it?');
    await held.arrived;
    // Slack holds the card's post: the question is pending, its card not attached, and on the person's Home.
    expect(h.standin.messagesIn(h.standin.dmChannelOf(USER))).toEqual([]);
    await h.driver.openHome(USER);
    const home = await h.standin.waitForCall(
      'views.publish',
      (c) => c.ok && c.args.user_id === USER && respondIds(c).length === 1,
      15_000,
    );
    const [id = ''] = respondIds(home);
    await h.driver.clickHomeButton({ userId: USER, actionId: 'elicit_respond', value: id });
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews(USER).length > 0, 10_000);
    const [form] = h.standin.openViews(USER);
    const input = (form?.view.blocks as Block[]).find((b) => b.type === 'input')?.block_id ?? '';
    const submit = await h.driver.submitView({
      userId: USER,
      viewId: form?.id ?? '',
      values: { [input]: 'Production' },
    });
    expect(submit.body).toBe('');
    await acknowledged(id);

    held.release();
    const card = await asked;
    const update = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts, 15_000);
    const blocks = JSON.stringify(update.args.blocks);
    expect(blocks).toMatch(/Answered by <@UABC1> · <!date\^\d+\^/);
    expect(blocks).toContain('*Environment*: Production');
    expect(await h.toolResult(USER)).toEqual({ action: 'accept', content: { env: 'prod' } });
    // Drawn: the record keeps that it was accepted, not what was answered.
    await vi.waitFor(
      async () => expect(await redis.hget(keys(h.prefix).question(id), 'outcome')).toBe(DROPPED_OUTCOME),
      { timeout: 10_000, interval: 20 },
    );
  });
});
