// PRODUCT: "Bad input gets a clear error … Name what is wrong and where: … a request field's path." The
// mistakes an automation author makes, each sent to a real replica (real Redis under its own prefix, deleted
// after; the Slack stand-in): POST /questions, POST /calls, GET ?wait=, and ask_human through POST /mcp. Each
// 400 names the field's path and what it expects in plain words (with the value sent), never the error of a
// oneOf branch the client did not use ("/timeout: must be string" for 1500.5).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, type Api } from '../system/api-support.js';
import { startHarness, type Harness } from '../system/harness.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const TOKEN = 'refusal-messages-token-0123456789';
const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } } };
const ASK = { message: 'Ship it?', requestedSchema: SCHEMA, to: { user: 'U1' } };
const CALL = { server: 'fixture', tool: 'echo', arguments: {}, as: { user: 'U1' } };
const DURATION =
  'must be a duration string like "90s", "10m", "2h" or "1h30m", or a whole number of milliseconds (from 1s to 30d)';
const FIELDS = "'message', 'requestedSchema', 'to', 'team', 'timeout', 'callbackUrl', 'metadata'";
const ASK_FIELDS = "'message', 'requestedSchema', 'to', 'team', 'timeout'";
const KEYS = "'user', 'users', 'usergroup', 'channel'";

/** Objects nested `levels` deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

type Mistake = [what: string, fields: Record<string, unknown>, code: string, message: string];

/** POST /questions bodies: ASK with these fields (undefined: left out). Each is also an ask_human mistake. */
const QUESTION_MISTAKES: Mistake[] = [
  ['message a number', { message: 42 }, 'invalid_request', '/message: must be a string, got 42'],
  ['message empty', { message: '' }, 'invalid_request', '/message: must not be empty'],
  ['message missing', { message: undefined }, 'invalid_request', '/message: is required'],
  [
    'requestedSchema a string',
    { requestedSchema: 'x' },
    'invalid_request',
    '/requestedSchema: must be an object, got "x"',
  ],
  [
    'requestedSchema missing',
    { requestedSchema: undefined },
    'invalid_request',
    '/requestedSchema: is required',
  ],
  [
    'requestedSchema without type object',
    { requestedSchema: { properties: {} } },
    'invalid_schema',
    `/requestedSchema: the schema's root must have type "object", got nothing`,
  ],
  [
    'requestedSchema with a nested object',
    { requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } },
    'invalid_schema',
    '/requestedSchema: property "a": type "object" (a nested object) is not supported; the schema must be flat',
  ],
  [
    'requestedSchema property without a type',
    { requestedSchema: { type: 'object', properties: { a: { title: 'A' } } } },
    'invalid_schema',
    '/requestedSchema: property "a": has no "type"',
  ],
  ['to a string', { to: 'U1' }, 'invalid_request', `/to: must be an object with one of ${KEYS}, got "U1"`],
  ['to missing', { to: undefined }, 'invalid_request', '/to: is required'],
  [
    'to with two keys',
    { to: { user: 'U1', channel: 'C1' } },
    'invalid_request',
    `/to: must have only one of ${KEYS}, got 'user' and 'channel'`,
  ],
  ['to empty', { to: {} }, 'invalid_request', `/to: must have one of ${KEYS}`],
  [
    'to with an unknown key',
    { to: { person: 'U1' } },
    'invalid_request',
    `/to/person: unknown field; /to takes one of ${KEYS}`,
  ],
  [
    'to with an unknown key 1,000 characters long',
    { to: { ['p'.repeat(1_000)]: 'U1' } },
    'invalid_request',
    `/to/${'p'.repeat(40)}…: unknown field; /to takes one of ${KEYS}`,
  ],
  ['to.users empty', { to: { users: [] } }, 'invalid_request', '/to/users: must not be empty'],
  ['to.users a string', { to: { users: 'U1' } }, 'invalid_request', '/to/users: must be an array, got "U1"'],
  [
    'to.users with a lowercase id',
    { to: { users: ['U1', 'u2'] } },
    'invalid_request',
    '/to/users/1: must be a user id like U… or W…, got "u2"',
  ],
  [
    'to.user lowercase',
    { to: { user: 'u123abc' } },
    'invalid_request',
    '/to/user: must be a user id like U… or W…, got "u123abc"',
  ],
  [
    'to.user a name',
    { to: { user: 'alice' } },
    'invalid_request',
    '/to/user: must be a user id like U… or W…, got "alice"',
  ],
  [
    'to.user a number',
    { to: { user: 7 } },
    'invalid_request',
    '/to/user: must be a user id like U… or W…, got 7',
  ],
  [
    'to.channel #general',
    { to: { channel: '#general' } },
    'invalid_request',
    '/to/channel: must be a channel id like C… or G…, got "#general"',
  ],
  [
    'to.usergroup @oncall',
    { to: { usergroup: '@oncall' } },
    'invalid_request',
    '/to/usergroup: must be a user group id like S…, got "@oncall"',
  ],
  [
    'team lowercase',
    { team: 't1' },
    'invalid_request',
    '/team: must be a workspace (team) id like T…, got "t1"',
  ],
  ['timeout fractional', { timeout: 1500.5 }, 'invalid_request', `/timeout: ${DURATION}, got 1500.5`],
  ['timeout negative', { timeout: -5 }, 'invalid_request', `/timeout: ${DURATION}, got -5`],
  ['timeout zero', { timeout: 0 }, 'invalid_request', `/timeout: ${DURATION}, got 0`],
  [
    'timeout over the maximum',
    { timeout: 31 * 86_400_000 },
    'invalid_request',
    `/timeout: ${DURATION}, got 2678400000`,
  ],
  ['timeout "31d"', { timeout: '31d' }, 'invalid_request', `/timeout: ${DURATION}, got "31d"`],
  [
    'timeout "10 minutes"',
    { timeout: '10 minutes' },
    'invalid_request',
    `/timeout: ${DURATION}, got "10 minutes"`,
  ],
  ['timeout "10m30"', { timeout: '10m30' }, 'invalid_request', `/timeout: ${DURATION}, got "10m30"`],
  ['timeout true', { timeout: true }, 'invalid_request', `/timeout: ${DURATION}, got true`],
  [
    'timeout an object',
    { timeout: { minutes: 10 } },
    'invalid_request',
    `/timeout: ${DURATION}, got an object`,
  ],
];

/** Fields only POST /questions takes (ask_human has no webhook or metadata). */
const HTTP_ONLY_MISTAKES: Mistake[] = [
  [
    'an unknown top-level key',
    { timout: '5m' },
    'invalid_request',
    `/timout: unknown field; the known fields are ${FIELDS}`,
  ],
  [
    'an unknown key 10,000 characters long, with control characters',
    { [`\u001b[31m${'k'.repeat(10_000)}`]: 1 },
    'invalid_request',
    `/\\u001b[31m${'k'.repeat(35)}…: unknown field; the known fields are ${FIELDS}`,
  ],
  [
    'callbackUrl not http(s)',
    { callbackUrl: 'ftp://hooks.example.com/x' },
    'invalid_request',
    '/callbackUrl: must be an http(s) URL, not ftp:',
  ],
  [
    'callbackUrl not a URL',
    { callbackUrl: 'not a url' },
    'invalid_request',
    '/callbackUrl: must be an absolute URL such as "https://example.com/hook", got "not a url"',
  ],
  [
    'callbackUrl a disallowed host',
    { callbackUrl: 'https://evil.example.org/hook' },
    'invalid_request',
    '/callbackUrl: host evil.example.org is not allowed (add it to ELICIT_RELAY_WEBHOOK_HOSTS)',
  ],
  [
    'metadata too deep',
    { metadata: nested(70) },
    'invalid_request',
    '/metadata: must not nest objects and arrays more than 64 levels deep',
  ],
  ['metadata an array', { metadata: [1] }, 'invalid_request', '/metadata: must be an object, got an array'],
];

/** ask_human's own fields: no webhook, no metadata. */
const ASK_HUMAN_MISTAKES: Mistake[] = [
  [
    'a callbackUrl',
    { callbackUrl: 'https://hooks.example.com/x' },
    'invalid_request',
    `/callbackUrl: unknown field; the known fields are ${ASK_FIELDS}`,
  ],
  [
    'an unknown top-level key',
    { timout: '5m' },
    'invalid_request',
    `/timout: unknown field; the known fields are ${ASK_FIELDS}`,
  ],
];

const CALL_MISTAKES: Mistake[] = [
  [
    'arguments a string',
    { arguments: '{"a":1}' },
    'invalid_request',
    '/arguments: must be an object, got "{\\"a\\":1}"',
  ],
  [
    'arguments an array',
    { arguments: [1] },
    'invalid_request',
    '/arguments: must be an object, got an array',
  ],
  ['as missing', { as: undefined }, 'invalid_request', '/as: is required'],
  ['as a user id string', { as: 'U1' }, 'invalid_request', '/as: must be an object, got "U1"'],
  ['as without user', { as: {} }, 'invalid_request', '/as/user: is required'],
  [
    'as.user lowercase',
    { as: { user: 'u1' } },
    'invalid_request',
    '/as/user: must be a user id like U… or W…, got "u1"',
  ],
  ['tool empty', { tool: '' }, 'invalid_request', '/tool: must not be empty'],
  [
    'an unknown top-level key',
    { args: {} },
    'invalid_request',
    "/args: unknown field; the known fields are 'server', 'tool', 'arguments', 'as', 'callbackUrl'",
  ],
];

const WAIT_MISTAKES: [query: string, message: string][] = [
  ['wait=1.5', '/wait: must be a whole number of seconds from 0 to 60, got "1.5"'],
  ['wait=-1', '/wait: must be a whole number of seconds from 0 to 60, got -1'],
  ['wait=61', '/wait: must be a whole number of seconds from 0 to 60, got 61'],
  ['wait=soon', '/wait: must be a whole number of seconds from 0 to 60, got "soon"'],
];

const withFields = (base: object, fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries({ ...base, ...fields }).filter(([, value]) => value !== undefined));

describe("the API's refusals of an automation author's common mistakes", () => {
  let h: Harness;
  let api: Api;
  let host: Client;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        ELICIT_RELAY_API_TOKEN: TOKEN,
        ELICIT_RELAY_WEBHOOK_HOSTS: 'hooks.example.com',
        ELICIT_RELAY_WEBHOOK_SECRET: 'whsec-refusals-0123456789',
      },
    });
    api = apiOf(h, TOKEN);
    host = new Client({ name: 'refusals', version: '1.0.0' });
    const url = new URL(`http://127.0.0.1:${h.replicas[0]?.port}/mcp`);
    const requestInit = { headers: { authorization: `Bearer ${TOKEN}` } };
    await host.connect(new StreamableHTTPClientTransport(url, { requestInit }));
  });
  afterAll(async () => {
    await host.close();
    await h.close();
    await deleteUnder(h.prefix);
  });

  const refusalOf = (reply: { status: number; body: Record<string, unknown> }) => ({
    status: reply.status,
    error: reply.body.error,
  });

  it.each([...QUESTION_MISTAKES, ...HTTP_ONLY_MISTAKES])(
    'POST /questions, %s',
    async (_what, fields, code, message) => {
      const reply = await api('POST', '/questions', { body: withFields(ASK, fields) });
      expect(refusalOf(reply)).toEqual({ status: 400, error: { code, message } });
    },
  );

  it.each(CALL_MISTAKES)('POST /calls, %s', async (_what, fields, code, message) => {
    const reply = await api('POST', '/calls', { body: withFields(CALL, fields) });
    expect(refusalOf(reply)).toEqual({ status: 400, error: { code, message } });
  });

  it.each(WAIT_MISTAKES)('GET /questions/{id}?%s', async (query, message) => {
    const reply = await api('GET', `/questions/some-question?${query}`);
    expect(refusalOf(reply)).toEqual({ status: 400, error: { code: 'invalid_request', message } });
  });

  it.each([...QUESTION_MISTAKES, ...ASK_HUMAN_MISTAKES])(
    'ask_human, %s',
    async (_what, fields, code, message) => {
      const result = await host.callTool({ name: 'ask_human', arguments: withFields(ASK, fields) });
      expect([result.isError, result.content]).toEqual([
        true,
        [{ type: 'text', text: `${code}: ${message}` }],
      ]);
    },
  );
});
