// The Automations API's calls (PRODUCT "Automations contract": POST/GET /api/v1/calls) against three replicas,
// real Redis, the fixture MCP server and the Slack stand-in: a call runs as if the person had typed /mcp run
// (their DM, the same card and result post), its questions are listed on it, a long-poll on another replica
// wakes when it ends, duplicates across replicas make one call, and the audit trail records it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CREATE } from '../../src/api/schemas.js';
import { RICH_RESULT } from '../fixtures/elicit-server.js';
import { fixtureCommand } from '../setup/compiled.js';
import { questionIdOnCard, resultText } from '../support/slack-text.js';
import { apiOf, auditEventWith, cardWith, codeOf, type Api, type RequestOptions } from './api-support.js';
import { openForm, startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-calls-0123456789';
const OTHER = 'api-token-calls-other-0123456789';
const NARROW = 'api-token-calls-narrow-0123456789';
const LIMITED = 'api-token-calls-limited-0123456789';
const SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Reason' } },
  required: ['reason'],
};

describe('the calls API', () => {
  let h: Harness;
  let api: Api;
  beforeAll(async () => {
    h = await startHarness({
      replicas: 3,
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      moreFixtures: { deploy: { timeout: '2m' } },
      // A server whose questions its slack.route posts in a channel instead of the person's DM.
      servers: { routed: { ...fixtureCommand(), slack: { route: 'channel', channel: 'C0ROUTED' } } },
      workspace: { channels: { C0ROUTED: ['U1', 'U0STANDINBOT'] } },
      config: {
        api: {
          clients: {
            other: { token: OTHER },
            narrow: { token: NARROW, servers: ['deploy'], targets: ['U7'] },
            limited: { token: LIMITED, ratePerMinute: 1 },
          },
        },
      },
    });
    api = apiOf(h, TOKEN);
  });
  afterAll(async () => {
    await h.close();
  });

  const call = (body: Record<string, unknown>, opts: RequestOptions = {}) =>
    api('POST', '/calls', { ...opts, body: { server: 'fixture', as: { user: 'U1' }, ...body } });

  /** The tool-result messages in a person's DM whose text contains `text`. */
  const resultsWith = (userId: string, text: string) =>
    h.standin
      .messagesIn(h.standin.dmChannelOf(userId))
      .filter((m) => !JSON.stringify(m.blocks ?? '').includes('elicit_respond'))
      .filter((m) => resultText(m.blocks).includes(text));

  it('documents /calls, /calls/{id} and /audit in the OpenAPI document, from the schemas it validates with', async () => {
    const doc = await api('GET', '/openapi.json', { token: null });
    expect(Object.keys(doc.body.paths as object)).toEqual(
      expect.arrayContaining(['/calls', '/calls/{id}', '/audit']),
    );
    const { schemas } = doc.body.components as { schemas: Record<string, unknown> };
    expect(schemas.CallCreate).toEqual(JSON.parse(JSON.stringify(CALL_CREATE)));
  });

  it(
    'runs the tool as the person: its question in their DM, answered on the card; a long-poll on B wakes with the result and the question',
    { timeout: 60_000 },
    async () => {
      const args = { message: 'Deploy via the API?', schema: SCHEMA };
      const created = await call({ tool: 'ask', arguments: args });
      expect(created.status).toBe(202);
      const id = String(created.body.id);
      expect(created.body).toEqual({ id, status: 'running' });
      const card = await cardWith(h, 'Deploy via the API?');
      expect(card.channel).toBe(h.standin.dmChannelOf('U1'));
      const questionId = questionIdOnCard(card.call.args.blocks);
      const running = await api('GET', `/calls/${id}`, { on: 2 });
      expect(running.body).toEqual({ id, status: 'running', questions: [questionId] });
      const waiting = api('GET', `/calls/${id}?wait=30`, { on: 1 });
      const viewId = await openForm(h, 'U1', card);
      const block =
        (h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[]).find(
          (b) => b.type === 'input',
        )?.block_id ?? '';
      await h.drivers[2]?.submitView({ userId: 'U1', viewId, values: { [block]: 'ship it' } });
      const ended = await waiting;
      const answer = { action: 'accept', content: { reason: 'ship it' } };
      expect(ended.body).toEqual({
        id,
        status: 'completed',
        result: { content: [{ type: 'text', text: JSON.stringify(answer) }] },
        questions: [questionId],
      });
      // The same result post as /mcp run, in the person's DM.
      expect(await h.toolResult('U1')).toEqual(answer);
    },
  );

  it("lets the client that started a call read, long-poll and withdraw the call's question; another client gets 404", async () => {
    const args = { message: 'Withdraw me via the API?', schema: SCHEMA };
    const id = String((await call({ tool: 'ask', arguments: args })).body.id);
    const questionId = questionIdOnCard((await cardWith(h, 'Withdraw me via the API?')).call.args.blocks);
    expect((await api('GET', `/calls/${id}`)).body.questions).toEqual([questionId]);
    const read = await api('GET', `/questions/${questionId}?wait=0`, { on: 1 });
    expect([read.status, read.body.status]).toEqual([200, 'pending']);
    expect((await api('GET', `/questions/${questionId}`, { token: OTHER })).status).toBe(404);
    expect((await api('DELETE', `/questions/${questionId}`, { token: OTHER })).status).toBe(404);
    const waiting = api('GET', `/questions/${questionId}?wait=30`, { on: 2 });
    const withdrawn = await api('DELETE', `/questions/${questionId}`, { on: 1 });
    expect(withdrawn.body).toMatchObject({ id: questionId, status: 'cancelled', reason: 'withdrawn' });
    expect((await waiting).body).toMatchObject({ status: 'cancelled', result: { action: 'cancel' } });
    const ended = await api('GET', `/calls/${id}?wait=30`);
    expect(ended.body).toMatchObject({ status: 'completed', questions: [questionId] });
  });

  it('keeps the whole CallToolResult as the server returned it (image, resource, link, structuredContent, _meta) while the DM shows its summary', async () => {
    const created = await call({ tool: 'rich', arguments: {} }, { on: 1 });
    const ended = await api('GET', `/calls/${String(created.body.id)}?wait=30`, { on: 2 });
    expect(ended.body).toEqual({
      id: created.body.id,
      status: 'completed',
      result: RICH_RESULT,
      questions: [],
    });
    expect(resultsWith('U1', 'chart attached')).toHaveLength(1);
  });

  it('follows a -32042 answer as /mcp run does: the person gets the links (no Retry), the call retries once the server says they are done', async () => {
    const url = `https://auth.example.com/api-${Date.now()}`;
    const created = await call({ tool: 'require_url_then_complete', arguments: { url, afterMs: 300 } });
    const id = String(created.body.id);
    const links = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === h.standin.dmChannelOf('U1') && JSON.stringify(c.args).includes(url),
      30_000,
    );
    expect(JSON.stringify(links.args.blocks)).toContain('goes on by itself');
    expect(JSON.stringify(links.args.blocks)).not.toContain('mcp_retry');
    const ended = await api('GET', `/calls/${id}?wait=30`, { on: 1 });
    expect(ended.body).toEqual({
      id,
      status: 'completed',
      result: { content: [{ type: 'text', text: `signed in at ${url}` }] },
      questions: [],
    });
    expect(resultsWith('U1', `signed in at ${url}`)).toHaveLength(1);
  });

  it("posts the call's question where the server's slack.route says (a channel), and the person answers there", async () => {
    const args = { message: 'Routed via the API?', schema: SCHEMA };
    const created = await call({ server: 'routed', tool: 'ask', arguments: args });
    expect(created.status).toBe(202);
    const card = await cardWith(h, 'Routed via the API?');
    expect(card.channel).toBe('C0ROUTED');
    const waiting = api('GET', `/calls/${String(created.body.id)}?wait=30`, { on: 1 });
    await h.drivers[2]?.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    expect((await waiting).body).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: JSON.stringify({ action: 'decline' }) }] },
      questions: [questionIdOnCard(card.call.args.blocks)],
    });
  });

  it('ends failed with the error when the tool reports one, its result kept', async () => {
    const created = await call({ tool: 'fail', arguments: { reason: 'disk full' } }, { on: 1 });
    const ended = await api('GET', `/calls/${String(created.body.id)}?wait=30`, { on: 2 });
    expect(ended.body).toEqual({
      id: created.body.id,
      status: 'failed',
      error: 'disk full',
      result: { content: [{ type: 'text', text: 'disk full' }], isError: true },
      questions: [],
    });
  });

  it('makes exactly one call (one result post) for concurrent duplicates on two replicas; another body gets 409', async () => {
    const key = `call-${Date.now()}`;
    const text = `once ${key}`;
    const headers = { 'idempotency-key': key };
    const body = { tool: 'echo', arguments: { text } };
    const replies = await Promise.all([0, 1, 0, 1].map((on) => call(body, { on, headers })));
    const ids = new Set(replies.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 202]);
    const [id] = [...ids];
    const ended = await api('GET', `/calls/${String(id)}?wait=30`, { on: 2 });
    expect(ended.body).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text }] } });
    const again = await call(body, { on: 2, headers });
    expect([again.status, again.body.id, again.body.status]).toEqual([200, id, 'completed']);
    expect(resultsWith('U1', text)).toHaveLength(1);
    const conflict = await call({ tool: 'echo', arguments: { text: 'other' } }, { headers });
    expect([conflict.status, codeOf(conflict)]).toEqual([409, 'idempotency_conflict']);
  });

  it('refuses no token (401), an unknown server (400 naming /server), a callback host not allowed (400), servers and people a client may not use (403), and writes nothing', async () => {
    const body = { tool: 'echo', arguments: { text: 'no' } };
    expect((await call(body, { token: null })).status).toBe(401);
    expect((await call(body, { token: 'wrong' })).status).toBe(401);
    const unknown = await call({ ...body, server: 'nope' });
    expect([unknown.status, (unknown.body.error as { message: string }).message]).toEqual([
      400,
      '/server: no MCP server named "nope" is configured',
    ]);
    const badArgs = await call({ ...body, arguments: 'text' });
    expect((badArgs.body.error as { message: string }).message).toMatch(/^\/arguments: /);
    const badUser = await call({ ...body, as: { user: 'bob' } });
    expect((badUser.body.error as { message: string }).message).toMatch(/^\/as\/user: /);
    const hook = await call({ ...body, callbackUrl: 'https://evil.example/hook' });
    expect([hook.status, (hook.body.error as { message: string }).message]).toEqual([
      400,
      expect.stringMatching(/^\/callbackUrl: host evil.example is not allowed/),
    ]);
    const server = await call(body, { token: NARROW });
    expect([server.status, codeOf(server)]).toEqual([403, 'forbidden']);
    const person = await call({ ...body, server: 'deploy' }, { token: NARROW });
    expect([person.status, codeOf(person)]).toEqual([403, 'forbidden']);
    expect(resultsWith('U1', 'no')).toHaveLength(0);
  });

  it('obeys the client’s rate limit across replicas, one budget with its questions: 429 with Retry-After, nothing run', async () => {
    const first = await call({ tool: 'echo', arguments: { text: 'within the rate' } }, { token: LIMITED });
    expect(first.status).toBe(202);
    const second = await call(
      { tool: 'echo', arguments: { text: 'past the rate' } },
      { token: LIMITED, on: 1 },
    );
    expect([second.status, codeOf(second)]).toEqual([429, 'rate_limited']);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const question = { message: 'Past the rate too', requestedSchema: SCHEMA, to: { user: 'U1' } };
    const asked = await api('POST', '/questions', { token: LIMITED, on: 2, body: question });
    expect([asked.status, codeOf(asked)]).toEqual([429, 'rate_limited']);
    expect(
      (await api('GET', `/calls/${String(first.body.id)}?wait=30`, { token: LIMITED })).body.status,
    ).toBe('completed');
    expect(resultsWith('U1', 'past the rate')).toHaveLength(0);
  });

  it('answers 404 for unknown ids and for another client’s call, and 400 for a wait over 60', async () => {
    const created = await call({ tool: 'echo', arguments: { text: 'mine' } });
    const id = String(created.body.id);
    expect((await api('GET', `/calls/${id}`, { token: OTHER })).status).toBe(404);
    expect(codeOf(await api('GET', '/calls/call_nope'))).toBe('not_found');
    expect((await api('GET', `/calls/${id}?wait=61`)).status).toBe(400);
    expect((await api('GET', `/calls/${id}?wait=30`)).body.status).toBe('completed');
  });

  it('records a /mcp run typed in Slack as call.created and call.ended, naming the server, the tool and who ran it', async () => {
    await h.driver.slashCommand({
      userId: 'U6',
      command: '/mcp',
      text: 'run fixture fail {"reason":"typed"}',
    });
    await auditEventWith(h, { type: 'call.ended', user: 'U6' });
    const page = await api('GET', '/audit?user=U6');
    const who = { server: 'fixture', tool: 'fail', user: 'U6' };
    const events = page.body.events as Record<string, unknown>[];
    const call = events[0]?.call;
    expect(call).toMatch(/^run_/);
    expect(events).toEqual([
      expect.objectContaining({ type: 'call.created', call, ...who }),
      expect.objectContaining({ type: 'call.ended', call, status: 'failed', ...who }),
    ]);
    expect(events[0]).not.toHaveProperty('client');
  });

  it('records call.created and call.ended in the audit trail, naming the client, the person, the server and the tool', async () => {
    const created = await call({ tool: 'echo', arguments: { text: 'audited' } }, { token: OTHER });
    const id = String(created.body.id);
    await auditEventWith(h, { type: 'call.ended', call: id });
    const page = await api('GET', '/audit?client=other');
    const events = (page.body.events as Record<string, unknown>[]).filter((e) => e.call === id);
    const who = { client: 'other', user: 'U1', server: 'fixture', tool: 'echo' };
    expect(events).toEqual([
      expect.objectContaining({ type: 'call.created', ...who }),
      expect.objectContaining({ type: 'call.ended', status: 'completed', ...who }),
    ]);
  });
});
