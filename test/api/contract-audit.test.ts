// PRODUCT "Automations contract" read statement by statement as an outside acceptance test reads it, against
// one real replica (real Redis under its own prefix, deleted after; the Slack stand-in; a webhook receiver):
// exact field sets and types, RFC 3339 times, the error shape on every refusal, and every reply checked
// against the OpenAPI document the bot serves. What other tests already check exactly is not repeated here
// (api-questions.test.ts, api-calls.test.ts, webhooks.test.ts, openapi-document.test.ts).
import { createHmac } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, cardWith, type Api, type Reply } from '../system/api-support.js';
import { inputLabelled, openForm, startHarness, type Harness } from '../system/harness.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { Contract, openApiDoc } from './support.js';

const TOKEN = 'audit-token-default-0123456789';
const OTHER = 'audit-token-other-0123456789';
const SECRET = 'whsec-audit-0123456789';
const SCHEMA = { type: 'object', properties: { reason: { type: 'string', title: 'Reason' } } };
/** RFC 3339 section 5.6's date-time: seconds required, an offset (Z or ±hh:mm) required. */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

describe('the automations contract, read from outside', () => {
  let h: Harness;
  let api: Api;
  let contract: Contract;
  let receiver: Server;
  let hookUrl: string;
  const hooks: { headers: Record<string, unknown>; body: string }[] = [];
  const arrivals = new EventEmitter();
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
        arrivals.emit('hook');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    hookUrl = `http://127.0.0.1:${port}/hook`;
    h = await startHarness({
      env: {
        ELICIT_RELAY_API_TOKEN: TOKEN,
        ELICIT_RELAY_WEBHOOK_HOSTS: `127.0.0.1:${port}`,
        ELICIT_RELAY_WEBHOOK_SECRET: SECRET,
      },
      config: { api: { clients: { other: { token: OTHER } } } },
    });
    api = apiOf(h, TOKEN);
    contract = new Contract(openApiDoc((await api('GET', '/openapi.json', { token: null })).body));
  });
  afterAll(async () => {
    await h.close();
    await new Promise((resolve) => receiver.close(resolve));
    await deleteUnder(h.prefix);
  });

  /** The reply, after checking it against the OpenAPI document's entry for `method template`. */
  const documented = (method: string, template: string, reply: Reply): Reply => {
    expect(contract.problems(method, template, reply)).toEqual([]);
    return reply;
  };
  const ask = (extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    api('POST', '/questions', {
      body: { message: 'Audit me?', requestedSchema: SCHEMA, to: { user: 'U1' }, ...extra },
      headers,
    });
  /** A 4xx `{"error":{"code","message"}}` with nothing else, its code `code`. */
  const expectError = (reply: Reply, status: number, code: string): void => {
    expect([reply.status, reply.headers.get('content-type')]).toEqual([
      status,
      expect.stringMatching(/^application\/json/),
    ]);
    expect(reply.body).toEqual({ error: { code, message: expect.stringMatching(/\S/) as string } });
  };

  it('answers 401 with the error shape on every route for a missing or wrong token, as the document declares', async () => {
    const routes: [string, string, string, unknown?][] = [
      ['POST', '/questions', '/questions', { message: 'm', requestedSchema: SCHEMA, to: { user: 'U1' } }],
      ['GET', '/questions/abc', '/questions/{id}'],
      ['DELETE', '/questions/abc', '/questions/{id}'],
      ['POST', '/calls', '/calls', { server: 'fixture', tool: 'echo', arguments: {}, as: { user: 'U1' } }],
      ['GET', '/calls/abc', '/calls/{id}'],
      ['GET', '/audit', '/audit'],
    ];
    for (const [method, path, template, body] of routes) {
      for (const token of [null, 'wrong-token']) {
        const reply = documented(method, template, await api(method, path, { token, body }));
        expectError(reply, 401, 'unauthorized');
      }
    }
  });

  it('serves the OpenAPI document without a token, and with a wrong one', async () => {
    for (const token of [null, 'wrong-token']) {
      const doc = await api('GET', '/openapi.json', { token });
      expect([doc.status, doc.body.openapi]).toEqual([200, '3.1.0']);
    }
  });

  it('creates 201 {id, status, deadline} with the timeout as a duration string; GET pending has exactly id, status, createdAt, deadline', async () => {
    const created = documented('POST', '/questions', await ask({ timeout: '90s', metadata: { run: 7 } }));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const id = String(created.body.id);
    expect(created.body).toEqual({
      id,
      status: 'pending',
      deadline: expect.stringMatching(RFC3339) as string,
    });
    const pending = documented('GET', '/questions/{id}', await api('GET', `/questions/${id}`));
    expect(pending.body).toEqual({
      id,
      status: 'pending',
      createdAt: expect.stringMatching(RFC3339) as string,
      deadline: created.body.deadline,
    });
    expect(Date.parse(String(pending.body.deadline)) - Date.parse(String(pending.body.createdAt))).toBe(
      90_000,
    );
    // The GET fields are the contract's list, metadata not among them: the document may not promise it back.
    const create = contract.doc.components.schemas.QuestionCreate as {
      properties: { metadata: { description: string } };
    };
    expect(create.properties.metadata.description).not.toMatch(/returned/i);
    documented('DELETE', '/questions/{id}', await api('DELETE', `/questions/${id}`));
  });

  it('ends declined: result {action: decline} alone, reason declined, answeredBy, RFC 3339 times; the webhook is the GET plus type, signed', async () => {
    const before = hooks.length;
    const id = String((await ask({ callbackUrl: hookUrl, message: 'Decline me?' })).body.id);
    const waiting = api('GET', `/questions/${id}?wait=30`);
    await h.driver.clickButton({ userId: 'U1', ...(await cardWith(h, id)), actionId: 'elicit_decline' });
    const ended = documented('GET', '/questions/{id}', await waiting);
    expect(ended.body).toEqual({
      id,
      status: 'declined',
      result: { action: 'decline' },
      reason: 'declined',
      answeredBy: 'U1',
      createdAt: expect.stringMatching(RFC3339) as string,
      deadline: expect.stringMatching(RFC3339) as string,
      endedAt: expect.stringMatching(RFC3339) as string,
    });
    while (hooks.length === before) await once(arrivals, 'hook');
    const hook = hooks[before];
    const timestamp = String(hook?.headers['x-elicit-relay-timestamp']);
    const mac = createHmac('sha256', SECRET)
      .update(`v1:${timestamp}:${hook?.body ?? ''}`)
      .digest('hex');
    expect(hook?.headers['x-elicit-relay-signature']).toBe(`v1=${mac}`);
    expect(JSON.parse(hook?.body ?? '')).toEqual({ ...ended.body, type: 'question.ended' });
    // Withdrawing what already ended changes nothing: the question stays as it ended.
    const late = documented('DELETE', '/questions/{id}', await api('DELETE', `/questions/${id}`));
    expect([late.status, late.body]).toEqual([200, ended.body]);
  });

  it('gives as result what an MCP server would receive: an optional field the person cleared gets its default (applyDefaults)', async () => {
    const requestedSchema = {
      type: 'object',
      properties: {
        reason: { type: 'string', title: 'Reason' },
        note: { type: 'string', title: 'Note', default: 'none' },
      },
      required: ['reason'],
    };
    const id = String((await ask({ requestedSchema, message: 'Defaults?' })).body.id);
    const viewId = await openForm(h, 'U1', await cardWith(h, id));
    const values = { [inputLabelled(h, viewId, 'Reason')]: 'ship' };
    expect((await h.driver.submitView({ userId: 'U1', viewId, values })).status).toBe(200);
    const ended = documented('GET', '/questions/{id}', await api('GET', `/questions/${id}?wait=30`));
    expect(ended.body.result).toEqual({ action: 'accept', content: { reason: 'ship', note: 'none' } });
  });

  it('withdraws with DELETE: 200, cancelled, reason withdrawn, result {action: cancel}, no answeredBy, as documented', async () => {
    const id = String((await ask()).body.id);
    const withdrawn = documented('DELETE', '/questions/{id}', await api('DELETE', `/questions/${id}`));
    expect(withdrawn.body).toEqual({
      id,
      status: 'cancelled',
      result: { action: 'cancel' },
      reason: 'withdrawn',
      createdAt: expect.stringMatching(RFC3339) as string,
      deadline: expect.stringMatching(RFC3339) as string,
      endedAt: expect.stringMatching(RFC3339) as string,
    });
    expect((await api('GET', `/questions/${id}`)).body).toEqual(withdrawn.body);
  });

  it('replays an Idempotency-Key with 200 and the same question, as documented; another body 409 with the error shape', async () => {
    const headers = { 'idempotency-key': `audit-${Date.now()}` };
    const first = documented('POST', '/questions', await ask({ message: 'Once?' }, headers));
    expect(first.status).toBe(201);
    const again = documented('POST', '/questions', await ask({ message: 'Once?' }, headers));
    expect([again.status, again.body.id, again.body.status]).toEqual([200, first.body.id, 'pending']);
    const conflict = documented('POST', '/questions', await ask({ message: 'Twice?' }, headers));
    expectError(conflict, 409, 'idempotency_conflict');
    // A key is the client's own: another client's same key makes its own question.
    const others = await api('POST', '/questions', {
      token: OTHER,
      body: { message: 'Twice?', requestedSchema: SCHEMA, to: { user: 'U1' } },
      headers,
    });
    expect(others.status).toBe(201);
    expect(others.body.id).not.toBe(first.body.id);
    await api('DELETE', `/questions/${String(others.body.id)}`, { token: OTHER });
    await api('DELETE', `/questions/${String(first.body.id)}`);
  });

  it('takes ?wait= from 0 to 60 and refuses others with 400 in the error shape; 404 for unknown ids and for another client’s', async () => {
    const id = String((await ask()).body.id);
    await api('DELETE', `/questions/${id}`);
    const atLimit = documented('GET', '/questions/{id}', await api('GET', `/questions/${id}?wait=60`));
    expect([atLimit.status, atLimit.body.status]).toEqual([200, 'cancelled']);
    for (const wait of ['61', '-1', 'abc', '1.5']) {
      expectError(
        documented('GET', '/questions/{id}', await api('GET', `/questions/${id}?wait=${wait}`)),
        400,
        'invalid_request',
      );
    }
    expectError(
      documented('GET', '/questions/{id}', await api('GET', `/questions/${id}`, { token: OTHER })),
      404,
      'not_found',
    );
    expectError(
      documented('DELETE', '/questions/{id}', await api('DELETE', `/questions/${id}`, { token: OTHER })),
      404,
      'not_found',
    );
    expectError(documented('GET', '/questions/{id}', await api('GET', '/questions/nope')), 404, 'not_found');
    expectError(documented('GET', '/calls/{id}', await api('GET', '/calls/nope')), 404, 'not_found');
  });

  it('refuses a schema the form engine refuses with 400 invalid_schema, the reason naming the field', async () => {
    const refused = await ask({
      requestedSchema: { type: 'object', properties: { deep: { type: 'object' } } },
    });
    expectError(documented('POST', '/questions', refused), 400, 'invalid_schema');
    expect((refused.body.error as { message: string }).message).toContain('deep');
  });

  it('starts a call 202 {id, status: running}; its GET, replay and end match the document', async () => {
    const body = { server: 'fixture', tool: 'echo', arguments: { text: 'audited' }, as: { user: 'U1' } };
    const headers = { 'idempotency-key': `audit-call-${Date.now()}` };
    const created = documented('POST', '/calls', await api('POST', '/calls', { body, headers }));
    const id = String(created.body.id);
    expect([created.status, created.body]).toEqual([202, { id, status: 'running' }]);
    const ended = documented('GET', '/calls/{id}', await api('GET', `/calls/${id}?wait=30`));
    expect(ended.body).toEqual({
      id,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'audited' }] },
      questions: [],
    });
    const again = documented('POST', '/calls', await api('POST', '/calls', { body, headers }));
    expect([again.status, again.body]).toEqual([200, ended.body]);
  });

  it('lists audit events at or after `since`, oldest first, as documented', async () => {
    const since = new Date().toISOString();
    const id = String((await ask({ message: 'Audit since?' })).body.id);
    await api('DELETE', `/questions/${id}`);
    const page = documented('GET', '/audit', await api('GET', `/audit?since=${since}`));
    const events = page.body.events as { at: string; type: string; question?: string }[];
    expect(events.every((e) => RFC3339.test(e.at) && e.at >= since)).toBe(true);
    expect(events.map((e) => e.at)).toEqual(events.map((e) => e.at).sort());
    expect(events.filter((e) => e.question === id).map((e) => e.type)).toEqual([
      'question.created',
      'question.ended',
    ]);
    const future = await api('GET', `/audit?since=${new Date(Date.now() + 3_600_000).toISOString()}`);
    expect(future.body.events).toEqual([]);
  });

  it('records a question asked of a channel with its `channel`, not the channel id as the person asked', async () => {
    const since = new Date().toISOString();
    const id = String((await ask({ message: 'Audit a channel?', to: { channel: 'C0AUDITED' } })).body.id);
    await api('DELETE', `/questions/${id}`);
    const page = documented('GET', '/audit', await api('GET', `/audit?since=${since}`));
    const events = (page.body.events as Record<string, unknown>[]).filter((e) => e.question === id);
    const who = events.map(({ type, user, channel, client }) => ({ type, user, channel, client }));
    const asked = { user: undefined, channel: 'C0AUDITED', client: 'default' };
    expect(who).toEqual([
      { type: 'question.created', ...asked },
      { type: 'question.ended', ...asked },
    ]);
    const asPerson = await api('GET', `/audit?since=${since}&user=C0AUDITED`);
    expect(asPerson.body.events).toEqual([]);
  });

  it('reads `since` written with an offset as RFC 3339 allows, its "+" left unescaped in the query as many clients leave it', async () => {
    // Python's datetime.isoformat() writes "+00:00"; put into a URL as is, a query parser reads its "+" as a space.
    const since = new Date(Date.now() - 60_000).toISOString().replace('Z', '+00:00');
    const asWritten = documented('GET', '/audit', await api('GET', `/audit?since=${since}`));
    const escaped = await api('GET', `/audit?since=${encodeURIComponent(since)}`);
    expect([asWritten.status, asWritten.body]).toEqual([200, escaped.body]);
  });

  it('refuses a `since` the calendar does not have instead of reading it as another day', async () => {
    for (const since of [
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2025-02-29T10:00:00Z',
    ]) {
      const refused = documented('GET', '/audit', await api('GET', `/audit?since=${since}`));
      expect([refused.status, refused.body], since).toEqual([
        400,
        { error: { code: 'invalid_request', message: '/since: must be an RFC 3339 date-time' } },
      ]);
    }
    const leapDay = await api('GET', '/audit?since=2024-02-29T23:59:59Z');
    expect(leapDay.status).toBe(200);
  });

  it('refuses a parameter it does not read, naming it and the ones it reads, instead of listing without it', async () => {
    // Before, `sinse` was ignored: the answer listed every event from the first, as if no `since` was sent.
    const refused = documented('GET', '/audit', await api('GET', '/audit?sinse=2026-01-01T00:00:00Z'));
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        error: {
          code: 'invalid_request',
          message:
            "/sinse: unknown field; the known fields are 'since', 'until', 'server', 'user', 'client', 'cursor', 'limit'",
        },
      },
    ]);
    const known = await api('GET', '/audit?since=2026-01-01T00:00:00Z&limit=1&server=fixture&user=U1');
    expect(known.status).toBe(200);
  });
});
