// The audit trail through the relay, on real Redis (question store and the audit's stream): one event per
// creation and per end whatever races, the answer kept only as `audit.content` says, and give-ups recorded.
import { afterEach, describe, expect, it } from 'vitest';
import { Audit, RedisAuditLog, type AuditContentMode, type AuditLog } from '../../src/audit/index.js';
import { systemClock } from '../../src/clock.js';
import { Relay, type Surface } from '../../src/relay/relay.js';
import { checkFormSchema } from '../../src/slack/checks.js';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { deferred } from '../support/deferred.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' }, note: { type: 'string' } } };
const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** A surface that posts at once and tells the test the question's id. */
function surface(): Surface & { posted: Promise<string> } {
  const { promise: posted, resolve: onPosted } = deferred<string>();
  return {
    posted,
    postQuestion: (q) => {
      onPosted(q.id);
      return Promise.resolve({ cards: [{ channel: 'D1', ts: '1.1' }] });
    },
    updateCard: () => Promise.resolve(),
    remind: () => Promise.resolve(),
  };
}

/** Two replicas sharing one Redis: each with its store, relay and audit writing to the same stream. */
async function replicas(content: AuditContentMode = 'none') {
  const prefix = uniquePrefix();
  opened.push(() => deleteUnder(prefix));
  const log = await RedisAuditLog.open({
    url: redisUrl(),
    prefix,
    logger: recordingLogger(),
    clock: systemClock,
  });
  opened.push(() => log.close());
  const replica = async (holderId: string) => {
    const store = await QuestionStore.open({ url: redisUrl(), prefix, holderId, logger: recordingLogger() });
    opened.push(() => store.close());
    const audit = new Audit({ logs: [log], reader: log, content, clock: systemClock, logger: silent });
    const ui = surface();
    const relay = new Relay({
      store,
      links: store.roundLinks(),
      surface: ui,
      checkSchema: checkFormSchema,
      checkUrl: () => undefined,
      clock: systemClock,
      logger: silent,
      observer: audit.questions,
    });
    await store.startInbox((q) => relay.onFinished(q));
    return { relay, audit, ui };
  };
  return { log, a: await replica('a'), b: await replica('b') };
}

function ask(relay: Relay) {
  return relay.askForm({
    server: 'deploy',
    userId: 'U1',
    origin: { userId: 'U1', channelId: 'C1' },
    message: 'Ship it?',
    requestedSchema: SCHEMA,
    timeoutMs: 60_000,
    signal: new AbortController().signal,
  });
}

describe('the audit trail', () => {
  it('records one creation and one end when two replicas race to end a question, with no answer content', async () => {
    const { log, a, b } = await replicas();
    const outcome = ask(a.relay);
    const id = await a.ui.posted;
    const answer = { action: 'accept' as const, content: { ok: true, note: 'secret plan' } };
    await Promise.all([
      a.relay.end(id, answer, 'answered', { byUserId: 'U2' }),
      b.relay.end(id, { action: 'decline' }, 'declined', { byUserId: 'U3' }),
      b.relay.end(id, { action: 'cancel' }, 'timed_out'),
    ]);
    await outcome;
    await Promise.all([a.audit.settle(), b.audit.settle()]);
    const { events } = await log.list({});
    expect(events.map((e) => e.type)).toEqual(['question.created', 'question.ended']);
    const [created, ended] = events;
    expect(created).toMatchObject({ question: id, server: 'deploy', user: 'U1' });
    expect(ended).toMatchObject({ question: id, server: 'deploy', user: 'U1' });
    expect(ended?.endedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/));
    expect(JSON.stringify(events)).not.toContain('secret plan');
    expect(ended).not.toHaveProperty('fields');
  });

  it('names the action, the reason and who answered', async () => {
    const { log, a } = await replicas();
    const outcome = ask(a.relay);
    const id = await a.ui.posted;
    await a.relay.end(id, { action: 'decline' }, 'declined', { byUserId: 'U2' });
    await outcome;
    await a.audit.settle();
    expect((await log.list({ user: 'U2' })).events).toEqual([
      expect.objectContaining({
        type: 'question.ended',
        action: 'decline',
        reason: 'declined',
        answeredBy: 'U2',
      }),
    ]);
  });

  it.each([
    ['fields', { fields: ['ok', 'note'] }],
    ['full', { content: { ok: true, note: 'n' } }],
  ] as const)('keeps the answer as audit.content %s says', async (mode, kept) => {
    const { log, a } = await replicas(mode);
    const outcome = ask(a.relay);
    const id = await a.ui.posted;
    await a.relay.end(id, { action: 'accept', content: { ok: true, note: 'n' } }, 'answered', {
      byUserId: 'U2',
    });
    await outcome;
    await a.audit.settle();
    expect((await log.list({})).events[1]).toMatchObject({
      type: 'question.ended',
      action: 'accept',
      ...kept,
    });
  });

  it('records a webhook that gave up, naming the client and the resource', async () => {
    const { log, a } = await replicas();
    await a.audit.webhookGaveUp({
      deliveryId: 'dlv_1',
      type: 'question.ended',
      resourceId: 'q9',
      url: 'https://ci.example.com/hook',
      client: 'ci',
      attempts: 30,
      code: 'bad_status',
      reason: 'the receiver answered 500',
    });
    expect((await log.list({ client: 'ci' })).events).toEqual([
      expect.objectContaining({
        type: 'webhook.gave_up',
        question: 'q9',
        webhook: {
          deliveryId: 'dlv_1',
          url: 'https://ci.example.com/hook',
          attempts: 30,
          code: 'bad_status',
          reason: 'the receiver answered 500',
        },
      }),
    ]);
  });

  it('never fails the work it records: a log that refuses is reported and the others still get the event', async () => {
    const { log } = await replicas();
    const refusing: AuditLog = {
      append: () => Promise.reject(new Error('database down')),
      list: () => Promise.resolve({ events: [] }),
      close: () => Promise.resolve(),
    };
    const errors: object[] = [];
    const lines: object[] = [];
    const audit = new Audit({
      logs: [refusing, log],
      reader: log,
      clock: systemClock,
      logger: { error: (obj) => errors.push(obj), info: (obj) => lines.push(obj) },
    });
    await audit.webhookGaveUp({
      deliveryId: 'd',
      type: 'call.ended',
      resourceId: 'c1',
      url: 'u',
      client: 'ci',
      attempts: 1,
      code: 'timeout',
      reason: 'r',
    });
    expect((await log.list({})).events.map((e) => e.call)).toEqual(['c1']);
    expect(errors).toHaveLength(1);
    expect(lines).toMatchObject([{ audit: { type: 'webhook.gave_up', call: 'c1' } }]);
  });
});
