// The Automations API's questions (PRODUCT "Automations contract") against three replicas, real Redis and
// the Slack stand-in: the same card and form as an MCP elicitation, long-polls woken across replicas,
// idempotency across replicas, withdraw, timeouts, closes, review, and every error code. Whom a question asks
// (channels, multi-person DMs, user groups, App Home): api-questions-audience.test.ts.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUESTION_CREATE } from '../../src/api/schemas.js';
import { keys } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';
import { codeOf, type Api } from './api-support.js';
import { inputLabelled, openForm, type Harness } from './harness.js';
import { NARROW, OTHER, TOKEN, startQuestionsRig, type Ask, type CardOf } from './api-questions-support.js';

describe('the questions API', () => {
  let h: Harness;
  let redis: Redis;
  let api: Api;
  let ask: Ask;
  let cardOf: CardOf;
  beforeAll(async () => {
    ({ h, api, ask, cardOf } = await startQuestionsRig());
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    redis.disconnect();
    await h.close();
  });

  /** Keys under the harness's prefix (to show a refused request wrote nothing). */
  const keyCount = async (): Promise<number> => (await redis.keys(`${h.prefix}:{q}:*`)).length;

  it('serves its OpenAPI 3.1 document without a token, built from the schemas it validates with', async () => {
    const doc = await api('GET', '/openapi.json', { token: null });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const components = doc.body.components as { schemas: Record<string, unknown> };
    expect(components.schemas.QuestionCreate).toEqual(JSON.parse(JSON.stringify(QUESTION_CREATE)));
  });

  it('refuses a missing or wrong token with 401 and writes nothing', async () => {
    const before = await keyCount();
    for (const token of [null, 'wrong-token', `${TOKEN}x`]) {
      const reply = await ask({}, { token });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) as string } });
    }
    expect((await api('GET', '/questions/abc', { token: 'nope' })).status).toBe(401);
    expect(await keyCount()).toBe(before);
  });

  it('refuses bad bodies with 415, 413 and 400 naming the field path, writing nothing', async () => {
    const before = await keyCount();
    const wrongType = await api('POST', '/questions', {
      body: 'message=hi',
      headers: { 'content-type': 'text/plain' },
    });
    expect([wrongType.status, (wrongType.body.error as { code: string }).code]).toEqual([
      415,
      'unsupported_media_type',
    ]);
    const big = await ask({ message: 'x'.repeat(1024 * 1024 + 10) });
    expect([big.status, (big.body.error as { code: string }).code]).toEqual([413, 'payload_too_large']);
    const badUser = await ask({ to: { user: 42 } });
    expect(badUser.status).toBe(400);
    expect(badUser.body.error).toEqual({
      code: 'invalid_request',
      message: expect.stringMatching(/^\/to\/user: /) as string,
    });
    const unknown = await ask({ colour: 'red' });
    expect((unknown.body.error as { message: string }).message).toMatch(/^\/colour: /);
    const badSchema = await ask({
      requestedSchema: { type: 'object', properties: { x: { type: 'object' } } },
    });
    expect([badSchema.status, (badSchema.body.error as { code: string }).code]).toEqual([
      400,
      'invalid_schema',
    ]);
    const badHook = await ask({ callbackUrl: 'https://evil.example/hook' });
    expect((badHook.body.error as { message: string }).message).toMatch(
      /^\/callbackUrl: host evil.example is not allowed/,
    );
    // The host is allowed, but this harness has no ELICIT_RELAY_WEBHOOK_SECRET: nothing would deliver it.
    const unsigned = await ask({ callbackUrl: 'https://hooks.example/hook' });
    expect([unsigned.status, (unsigned.body.error as { message: string }).message]).toEqual([
      400,
      '/callbackUrl: webhooks are off: ELICIT_RELAY_WEBHOOK_SECRET is not set, so nothing would be sent',
    ]);
    expect((await ask({ timeout: '45d' })).status).toBe(400);
    const notJson = await api('POST', '/questions', { body: '{"message":' });
    expect([notJson.status, codeOf(notJson)]).toEqual([400, 'invalid_json']);
    expect(await keyCount()).toBe(before);
  });

  it('asks with the same card as an MCP elicitation, naming the client; a long-poll on B wakes when C relays the answer', async () => {
    const created = await ask();
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect(created.body).toEqual({ id, status: 'pending', deadline: expect.any(String) as string });
    const card = await cardOf(id);
    expect(card.channel).toBe(h.standin.dmChannelOf('U1'));
    expect(JSON.stringify(card.call.args.blocks)).toContain('an automation (default)');
    const pending = await api('GET', `/questions/${id}`, { on: 2 });
    expect(pending.body).toMatchObject({ id, status: 'pending' });
    const waiting = api('GET', `/questions/${id}?wait=30`, { on: 1 });
    const viewId = await openForm(h, 'U1', card);
    const block =
      (h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[]).find(
        (b) => b.type === 'input',
      )?.block_id ?? '';
    const third = h.drivers[2];
    expect((await third?.submitView({ userId: 'U1', viewId, values: { [block]: 'ship it' } }))?.status).toBe(
      200,
    );
    const answered = await waiting;
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({
      id,
      status: 'accepted',
      result: { action: 'accept', content: { reason: 'ship it' } },
      reason: 'answered',
      answeredBy: 'U1',
      createdAt: expect.any(String) as string,
      deadline: expect.any(String) as string,
      endedAt: expect.any(String) as string,
    });
    expect(Date.parse(String(answered.body.endedAt))).toBeGreaterThanOrEqual(
      Date.parse(String(answered.body.createdAt)),
    );
  });

  it('answers 404 for unknown ids and for another client’s question, and 400 for a wait over 60', async () => {
    const created = await ask();
    const id = String(created.body.id);
    expect((await api('GET', `/questions/${id}`, { token: OTHER })).status).toBe(404);
    expect((await api('DELETE', `/questions/${id}`, { token: OTHER })).status).toBe(404);
    expect((await api('GET', '/questions/no-such-question')).body.error).toMatchObject({ code: 'not_found' });
    const tooLong = await api('GET', `/questions/${id}?wait=61`);
    expect([tooLong.status, (tooLong.body.error as { message: string }).message]).toEqual([
      400,
      '/wait: must be a whole number of seconds from 0 to 60, got 61',
    ]);
    await api('DELETE', `/questions/${id}`);
  });

  it('withdraws a pending question: cancelled, reason withdrawn, result cancel, and the card names the automation that withdrew it', async () => {
    const id = String((await ask()).body.id);
    const card = await cardOf(id);
    expect((await api('DELETE', `/questions/${id}`, { token: 'wrong-token' })).status).toBe(401);
    expect((await api('GET', `/questions/${id}`)).body.status).toBe('pending');
    const withdrawn = await api('DELETE', `/questions/${id}`, { on: 1 });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({
      id,
      status: 'cancelled',
      reason: 'withdrawn',
      result: { action: 'cancel' },
    });
    expect(withdrawn.body.answeredBy).toBeUndefined();
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 15_000);
    expect(JSON.stringify(update.args.blocks)).toContain('Withdrawn by an automation (default)');
  });

  it('takes a timeout in milliseconds and ends at its deadline: cancelled, reason timed_out, result cancel, the card expired', async () => {
    const created = await ask({ timeout: 2000, message: 'Anyone awake?' });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const card = await cardOf(id);
    const pending = await api('GET', `/questions/${id}`);
    expect(Date.parse(String(pending.body.deadline)) - Date.parse(String(pending.body.createdAt))).toBe(2000);
    const ended = await api('GET', `/questions/${id}?wait=30`, { on: 1 });
    expect(ended.body).toEqual({
      id,
      status: 'cancelled',
      result: { action: 'cancel' },
      reason: 'timed_out',
      createdAt: pending.body.createdAt,
      deadline: pending.body.deadline,
      endedAt: expect.any(String) as string,
    });
    expect(Date.parse(String(ended.body.endedAt))).toBeGreaterThanOrEqual(
      Date.parse(String(ended.body.deadline)),
    );
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 15_000);
    expect(JSON.stringify(update.args.blocks)).toContain('Expired: no answer in time');
  });

  it('ends cancelled, reason closed, naming who closed the form without answering', async () => {
    const id = String((await ask({ message: 'Close me?' })).body.id);
    const card = await cardOf(id);
    const viewId = await openForm(h, 'U1', card);
    const waiting = api('GET', `/questions/${id}?wait=30`, { on: 2 });
    expect((await h.drivers[1]?.closeView({ userId: 'U1', viewId }))?.status).toBe(200);
    expect((await waiting).body).toMatchObject({
      id,
      status: 'cancelled',
      result: { action: 'cancel' },
      reason: 'closed',
      answeredBy: 'U1',
    });
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 15_000);
    expect(JSON.stringify(update.args.blocks)).toContain('Closed without answering by <@U1>');
  });

  it('creates exactly one question (one card) for concurrent duplicates on two replicas; another body gets 409', async () => {
    const key = `deploy-${Date.now()}`;
    const headers = { 'idempotency-key': key };
    const replies = await Promise.all(
      [0, 1, 0, 1, 0, 1].map((on) => ask({ message: `Idempotent ${key}` }, { on, headers })),
    );
    const ids = new Set(replies.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const [id] = [...ids];
    await cardOf(String(id));
    const again = await ask({ message: `Idempotent ${key}` }, { on: 2, headers });
    expect([again.status, again.body.id]).toEqual([200, id]);
    const cards = h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' && JSON.stringify(c.args.blocks ?? '').includes(`Idempotent ${key}`),
    );
    expect(cards).toHaveLength(1);
    // Kept 24 h for the client, under the SHA-256 of the key.
    const stored = keys(h.prefix).idempotency('default', createHash('sha256').update(key).digest('hex'));
    const ttl = await redis.ttl(stored);
    expect(ttl).toBeGreaterThan(86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(86_400);
    const conflict = await ask({ message: 'Something else' }, { headers });
    expect([conflict.status, (conflict.body.error as { code: string }).code]).toEqual([
      409,
      'idempotency_conflict',
    ]);
    await api('DELETE', `/questions/${String(id)}`);
  });

  it('refuses a target the client may not ask with 403, and a question past its rate with 429 and Retry-After', async () => {
    const forbidden = await ask({ to: { user: 'U1' } }, { token: NARROW });
    expect([forbidden.status, (forbidden.body.error as { code: string }).code]).toEqual([403, 'forbidden']);
    const first = await ask({ to: { channel: 'C0APPROVE' }, message: 'Within the rate' }, { token: NARROW });
    expect(first.status).toBe(201);
    const second = await ask(
      { to: { channel: 'C0APPROVE' }, message: 'Past the rate' },
      { token: NARROW, on: 1 },
    );
    expect([second.status, (second.body.error as { code: string }).code]).toEqual([429, 'rate_limited']);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await api('DELETE', `/questions/${String(first.body.id)}`, { token: NARROW });
  });

  it('has the review step of an approving form: the summary is pushed, Send relays the typed answer', async () => {
    const approval = {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve the release' } },
      required: ['approve'],
    };
    const created = await ask({ requestedSchema: approval, to: { user: 'U0REVIEW' }, message: 'Release 9?' });
    const id = String(created.body.id);
    const form = await openForm(h, 'U0REVIEW', await cardOf(id));
    const values = { [inputLabelled(h, form, 'Approve the release')]: 'Yes' };
    const submitted = await h.drivers[1]?.submitView({ userId: 'U0REVIEW', viewId: form, values });
    expect(submitted?.json).toMatchObject({ response_action: 'push' });
    const review = h.standin.openViews('U0REVIEW').at(-1);
    expect(review?.view.callback_id).toBe('elicit_review');
    expect((await api('GET', `/questions/${id}`)).body.status).toBe('pending');
    const send = await h.drivers[2]?.submitView({ userId: 'U0REVIEW', viewId: review?.id ?? '', values: {} });
    expect(send?.json).toEqual({ response_action: 'clear' });
    expect((await api('GET', `/questions/${id}?wait=30`)).body).toMatchObject({
      status: 'accepted',
      result: { action: 'accept', content: { approve: true } },
      answeredBy: 'U0REVIEW',
    });
  });
});
