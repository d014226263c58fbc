// GET /metrics after a full flow: a card whose first post Slack rate-limits, an answer, a timeout, and an
// Automations API question withdrawn. Each series
// the flow touches carries the values it implies, and no label carries a user or question id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opsExpressions } from '../support/ops-files.js';
import {
  familyNames,
  isExported,
  parseSamples,
  seriesNamesIn,
  valueOf,
  type Sample,
} from '../support/prometheus.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { openForm, startHarness, type Harness } from './harness.js';

const API_TOKEN = 'metrics-api-token-0123456789';
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};

async function scrape(h: Harness): Promise<{ text: string; samples: Sample[]; type: string | null }> {
  const response = await fetch(`http://127.0.0.1:${h.relay.port}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, samples: parseSamples(text), type: response.headers.get('content-type') };
}

/** One Automations API request to the bot; the status and the created question's id. */
async function api(
  h: Harness,
  method: string,
  path: string,
  body?: object,
): Promise<{ status: number; id: string }> {
  const response = await fetch(`http://127.0.0.1:${h.relay.port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const reply = (await response.json()) as { id?: string };
  return { status: response.status, id: reply.id ?? '' };
}

async function cardUpdated(h: Harness, card: { ts: string }): Promise<void> {
  await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts, 10_000);
}

const idOnCard = (h: Harness, card: { channel: string; ts: string }): string =>
  questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);

describe('GET /metrics after a full flow', () => {
  let h: Harness;
  const questionIds: string[] = [];
  /** Epoch ms: before the quick server's question was asked, and once its end (cancel) reached the person. */
  let quickAskedAt = 0;
  let quickEndSeenAt = 0;
  beforeAll(async () => {
    h = await startHarness({
      moreFixtures: { quick: { timeout: '2s' } },
      env: { ELICIT_RELAY_API_TOKEN: API_TOKEN },
    });
    // Answered: the card's first post is rate-limited, the outbox waits Retry-After (1 s) and posts it.
    h.standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    const answered = await h.ask('U1', SCHEMA, 'Your name?');
    questionIds.push(idOnCard(h, answered));
    const viewId = await openForm(h, 'U1', answered);
    const blocks = h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[];
    const [block = ''] = blocks.filter((b) => b.type === 'input').map((b) => b.block_id);
    await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'Ada' } });
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { name: 'Ada' } });
    await cardUpdated(h, answered);
    // Timed out: nobody answers the quick server's question within its 2 s.
    quickAskedAt = Date.now();
    const expired = await h.run('U2', 'ask', { message: 'Too late?', schema: SCHEMA }, 'quick');
    questionIds.push(idOnCard(h, expired));
    expect(await h.toolResult('U2')).toEqual({ action: 'cancel' });
    quickEndSeenAt = Date.now();
    await cardUpdated(h, expired);
    // Asked through the API, then withdrawn; an unknown id is 404.
    const asked = await api(h, 'POST', '/questions', {
      message: 'Ship?',
      requestedSchema: SCHEMA,
      to: { user: 'U3' },
    });
    expect(asked.status).toBe(201);
    questionIds.push(asked.id);
    expect((await api(h, 'DELETE', `/questions/${asked.id}`)).status).toBe(200);
    expect((await api(h, 'GET', '/questions/nosuchquestion')).status).toBe(404);
  }, 40_000);
  afterAll(() => h.close());

  it('counts each question created and ended, by server, source, outcome and reason', async () => {
    const { samples, type } = await scrape(h);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    const created = 'elicit_relay_questions_created_total';
    expect(valueOf(samples, created, { server: 'fixture', source: 'mcp' })).toBe(1);
    expect(valueOf(samples, created, { server: 'quick', source: 'mcp' })).toBe(1);
    const ended = 'elicit_relay_questions_ended_total';
    const fixtureEnd = { server: 'fixture', source: 'mcp', outcome: 'accept', reason: 'answered' };
    expect(valueOf(samples, ended, fixtureEnd)).toBe(1);
    expect(valueOf(samples, ended, { server: 'quick', outcome: 'cancel', reason: 'timed_out' })).toBe(1);
    expect(valueOf(samples, created, { server: 'api:default', source: 'api' })).toBe(1);
    const apiEnd = { server: 'api:default', source: 'api', outcome: 'cancel', reason: 'withdrawn' };
    expect(valueOf(samples, ended, apiEnd)).toBe(1);
    expect(samples.filter((s) => s.name === ended)).toHaveLength(3);
    expect(valueOf(samples, 'elicit_relay_questions_pending')).toBe(0);
  });

  it('times the answer and the timeout lateness', async () => {
    const { samples } = await scrape(h);
    const answer = { server: 'fixture', source: 'mcp', outcome: 'accept' };
    expect(valueOf(samples, 'elicit_relay_question_answer_seconds_count', answer)).toBe(1);
    expect(valueOf(samples, 'elicit_relay_question_answer_seconds_sum', answer)).toBeGreaterThan(0);
    // Nobody answered the quick question: it has no time to answer, only a lateness.
    expect(
      valueOf(samples, 'elicit_relay_question_answer_seconds_count', { server: 'quick' }),
    ).toBeUndefined();
    expect(valueOf(samples, 'elicit_relay_timeout_lateness_seconds_count', { server: 'quick' })).toBe(1);
    // In seconds, and no later than the test saw the end: its deadline was 2 s after it was asked at the
    // earliest. How late timeouts are is measured by `npm run bench`, not here.
    const late = valueOf(samples, 'elicit_relay_timeout_lateness_seconds_sum', { server: 'quick' });
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThanOrEqual((quickEndSeenAt - quickAskedAt - 2_000) / 1000);
  });

  it('counts Slack Web API calls by method and error, the rate-limited one included', async () => {
    const { samples } = await scrape(h);
    const calls = 'elicit_relay_slack_api_calls_total';
    expect(valueOf(samples, calls, { method: 'chat.postMessage', error: 'ratelimited' })).toBe(1);
    // Two cards and two tool results.
    const posted = valueOf(samples, calls, { method: 'chat.postMessage', error: 'none' });
    expect(posted).toBe(h.standin.calls.filter((c) => c.method === 'chat.postMessage' && c.ok).length);
    expect(posted).toBeGreaterThanOrEqual(4);
    expect(valueOf(samples, calls, { method: 'chat.update', error: 'none' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(samples, calls, { method: 'views.open', error: 'none' })).toBe(1);
  });

  it('reports Slack ack latency, the outbox, MCP servers, Redis and the process', async () => {
    const { samples } = await scrape(h);
    // Two slash commands, a click and a submit were answered 200.
    const acks = valueOf(samples, 'elicit_relay_slack_ack_seconds_count', { status: '200' });
    expect(acks).toBeGreaterThanOrEqual(4);
    expect(valueOf(samples, 'elicit_relay_slack_ack_seconds_bucket', { status: '200', le: '3' })).toBe(acks);
    expect(valueOf(samples, 'elicit_relay_outbox_depth')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'elicit_relay_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'elicit_relay_mcp_server_connected', { server: 'fixture' })).toBe(1);
    expect(valueOf(samples, 'elicit_relay_mcp_server_connected', { server: 'quick' })).toBe(1);
    expect(valueOf(samples, 'elicit_relay_mcp_reconnects_total', { server: 'fixture' })).toBeUndefined();
    expect(valueOf(samples, 'elicit_relay_redis_up')).toBe(1);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('carries no user or question id in any label', async () => {
    const { samples } = await scrape(h);
    const values = samples.flatMap((s) => Object.values(s.labels));
    expect(questionIds.every((id) => id.length > 0)).toBe(true);
    expect(questionIds).toHaveLength(3);
    for (const id of [...questionIds, 'U1', 'U2', 'U3']) expect(values).not.toContain(id);
  });

  it('exports every series the ops/ alert rules and dashboard read', async () => {
    const families = familyNames((await scrape(h)).text);
    const read = opsExpressions().flatMap(({ where, expr }) =>
      seriesNamesIn(expr).map((name) => ({ where, name })),
    );
    expect(read.length).toBeGreaterThan(20);
    expect(read.filter(({ name }) => !isExported(name, families))).toEqual([]);
  });

  it('counts Automations API requests by route template, method and status', async () => {
    const { samples } = await scrape(h);
    const requests = 'elicit_relay_api_requests_total';
    expect(valueOf(samples, requests, { route: '/api/v1/questions', method: 'POST', status: '201' })).toBe(1);
    const one = '/api/v1/questions/{id}';
    expect(valueOf(samples, requests, { route: one, method: 'DELETE', status: '200' })).toBe(1);
    expect(valueOf(samples, requests, { route: one, method: 'GET', status: '404' })).toBe(1);
    expect(samples.filter((s) => s.name === requests)).toHaveLength(3);
  });
});
