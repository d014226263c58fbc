// The OpenAPI document the running bot serves (PRODUCT "Automations contract": GET /api/v1/openapi.json) says
// where the API answers and every status its operations answer: one real replica on real Redis (own prefix,
// deleted after), the Slack stand-in and the fixture MCP server; each reply is checked against the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, type Api } from '../system/api-support.js';
import { startHarness, type Harness } from '../system/harness.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { Contract, openApiDoc } from './support.js';

const TOKEN = 'openapi-token-default-0123456789';
const NARROW = 'openapi-token-narrow-0123456789';
const SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Reason' } },
  required: ['reason'],
};

describe('the served OpenAPI document', () => {
  let h: Harness;
  let api: Api;
  let contract: Contract;
  let base: string;
  beforeAll(async () => {
    h = await startHarness({
      replicas: 1,
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      config: {
        api: { clients: { narrow: { token: NARROW, targets: ['C0APPROVE', 'U1'], ratePerMinute: 1 } } },
      },
      workspace: { channels: { C0APPROVE: ['U1', 'U0STANDINBOT'] } },
    });
    api = apiOf(h, TOKEN);
    base = `http://127.0.0.1:${h.relay.port}`;
    const doc = await api('GET', '/openapi.json', { token: null });
    expect(doc.status).toBe(200);
    contract = new Contract(openApiDoc(doc.body));
  });
  afterAll(async () => {
    await h.close();
    await deleteUnder(h.prefix);
  });

  it('names as its server where the API answers, resolved as a generated client resolves it', async () => {
    const [server] = contract.doc.servers;
    expect(server?.url).toBe('/api/v1');
    // A client joins servers[0].url, resolved against the document's own URL, and an operation's path.
    const documentUrl = `${base}/api/v1/openapi.json`;
    const resolved = new URL(`${server?.url ?? ''}/questions/no-such-id`, documentUrl);
    const reply = await fetch(resolved, { headers: { authorization: `Bearer ${TOKEN}` } });
    const body = (await reply.json()) as { error?: { message?: string } };
    expect({ url: resolved.href, code: reply.status, message: body.error?.message }).toEqual({
      url: `${base}/api/v1/questions/no-such-id`,
      code: 404,
      message: 'No question no-such-id.',
    });
  });

  it('declares the statuses the question and call routes answer: 403 for a target not allowed, 429 with Retry-After for a call over the rate', async () => {
    const problems: string[] = [];
    const ask = (token: string, to: object) =>
      api('POST', '/questions', {
        token,
        body: { message: 'Declared statuses?', requestedSchema: SCHEMA, to },
      });
    // A named client whose targets leave out U2 is refused 403.
    const forbidden = await ask(NARROW, { user: 'U2' });
    expect([forbidden.status, (forbidden.body.error as { code?: string }).code]).toEqual([403, 'forbidden']);
    problems.push(...contract.problems('POST', '/questions', forbidden));
    // ratePerMinute counts questions and calls in one budget: the call after one question is refused 429.
    const first = await ask(NARROW, { channel: 'C0APPROVE' });
    expect(first.status).toBe(201);
    problems.push(...contract.problems('POST', '/questions', first));
    const limitedCall = await api('POST', '/calls', {
      token: NARROW,
      body: { server: 'fixture', tool: 'echo', arguments: { text: 'x' }, as: { user: 'U1' } },
    });
    expect([limitedCall.status, (limitedCall.body.error as { code?: string }).code]).toEqual([
      429,
      'rate_limited',
    ]);
    expect(Number(limitedCall.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    problems.push(...contract.problems('POST', '/calls', limitedCall));
    const withdrawn = await api('DELETE', `/questions/${String(first.body.id)}`, { token: NARROW });
    problems.push(...contract.problems('DELETE', '/questions/{id}', withdrawn));
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
