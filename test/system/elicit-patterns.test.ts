// A requested schema's `pattern`, through the real bot in-process (the fixture MCP server, the relay, Bolt against
// Slack's stand-in, the Automations API): one in the server's own dialect (Python's `(?i)`) no longer refuses the
// elicitation or the API question (before: -32602 to the server, 400 invalid_schema to the client, nobody asked);
// the question is asked and that field's answer left to the sender. One that backtracks catastrophically, against
// a ~30-character answer, is tested bounded in time (blocks/patterns.ts): the person is told the answer does not
// match and the replica goes on; it is logged once at warn naming the server or the client and the pattern, never
// the answer. Before, it held the event loop for ~40 s per test: those tests fail by vitest's timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../slack/log-capture.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { apiOf, cardWith, type Api } from './api-support.js';
import { openForm, startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-patterns-0123456789';
const REDOS = '^(a+)+$';
const CATASTROPHIC = `${'a'.repeat(30)}!`;
/** Far past a few bounded tests (50 ms each) and the bot's own work, far short of one unbounded test (~40 s). */
const BOUNDED = { timeout: 20_000 };

const single = (property: Record<string, unknown>) => ({
  type: 'object',
  properties: { code: { type: 'string', title: 'Code', ...property } },
  required: ['code'],
});

describe('a requested schema’s pattern, through the bot', () => {
  let h: Harness;
  let api: Api;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogs('warn');
    h = await startHarness({ logger: logs.logger, env: { ELICIT_RELAY_API_TOKEN: TOKEN } });
    api = apiOf(h, TOKEN);
  });
  afterAll(async () => {
    await h.close();
    await deleteUnder(h.prefix);
  });

  /** Submits `value` as the only answer of `userId`'s form on `card`; the bot's reply to the submit. */
  async function submit(userId: string, card: { channel: string; ts: string }, value: string) {
    const viewId = await openForm(h, userId, card);
    const blocks = h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[];
    const block = blocks.find((b) => b.type === 'input')?.block_id ?? '';
    const reply = await h.driver.submitView({ userId, viewId, values: { [block]: value } });
    return { block, viewId, reply };
  }

  it('asks a server’s elicitation whose pattern is in its own dialect; the rest of the field is checked', async () => {
    const schema = single({ pattern: '(?i)^[a-z@.]+$', format: 'email' });
    const card = await h.ask('U1', schema, 'Python dialect?');
    const notEmail = await submit('U1', card, 'ABC');
    const { block, viewId } = notEmail;
    expect(notEmail.reply.json).toEqual({
      response_action: 'errors',
      errors: { [block]: 'Enter a valid email address' },
    });
    const sent = await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'A1@B.CO' } });
    expect(sent.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { code: 'A1@B.CO' } });
  });

  it(
    'answers a catastrophic pattern "does not match" at once, and logs it once naming the server',
    BOUNDED,
    async () => {
      const card = await h.ask('U2', single({ pattern: REDOS }), 'Catastrophic?');
      const { block, viewId, reply } = await submit('U2', card, CATASTROPHIC);
      expect(reply.json).toEqual({
        response_action: 'errors',
        errors: { [block]: 'Does not match the expected format' },
      });
      const again = await h.driver.submitView({ userId: 'U2', viewId, values: { [block]: CATASTROPHIC } });
      expect(again.json).toEqual(reply.json);
      const line = await logs.waitFor((l) => l.pattern === REDOS && l.server === 'fixture');
      expect(line).toMatchObject({ level: 40 });
      expect(logs.lines.filter((l) => l.pattern === REDOS && l.server === 'fixture')).toHaveLength(1);
      expect(JSON.stringify(logs.lines)).not.toContain(CATASTROPHIC);
      const sent = await h.driver.submitView({ userId: 'U2', viewId, values: { [block]: 'aaa' } });
      expect(sent.body).toBe('');
      expect(await h.toolResult('U2')).toEqual({ action: 'accept', content: { code: 'aaa' } });
    },
  );

  it('takes an API question whose pattern is in its client’s dialect (it answered 400 invalid_schema)', async () => {
    const requestedSchema = single({ pattern: '(?P<code>[a-z]+)' });
    const created = await api('POST', '/questions', {
      body: { message: 'Client dialect?', requestedSchema, to: { user: 'U3' } },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const { reply } = await submit('U3', await cardWith(h, id), 'ANY 1');
    expect(reply.body).toBe('');
    const answered = await api('GET', `/questions/${id}?wait=10`);
    expect(answered.body).toMatchObject({ result: { action: 'accept', content: { code: 'ANY 1' } } });
  });

  it(
    'answers an API question’s catastrophic pattern "does not match", naming the client in the log',
    BOUNDED,
    async () => {
      const requestedSchema = single({ pattern: REDOS, title: 'Catastrophic for a client' });
      const created = await api('POST', '/questions', {
        body: { message: 'Client catastrophic?', requestedSchema, to: { user: 'U4' } },
      });
      expect(created.status).toBe(201);
      const { block, reply } = await submit('U4', await cardWith(h, String(created.body.id)), CATASTROPHIC);
      expect(reply.json).toEqual({
        response_action: 'errors',
        errors: { [block]: 'Does not match the expected format' },
      });
      await logs.waitFor((l) => l.pattern === REDOS && l.client === 'default');
    },
  );
});
