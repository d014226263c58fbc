// The client's loop and exit codes with the HTTP side scripted through the injected fetch (the real bot is
// exercised in test/system/client.test.ts): a retried POST keeps its Idempotency-Key, a pending question is
// asked again past the 60 s long-poll, the result goes to stdout and the status line to stderr.
import { describe, expect, it } from 'vitest';
import { API_ERRORS, type ApiErrorCode } from '../../src/api/errors.js';
import { EXIT, runClient, type ClientIO } from '../../src/client/index.js';

/** `text` sends a body as is; `breaks` sends headers, then a body stream that fails as undici's does mid-read. */
type Reply = { status: number; body?: unknown; text?: string; breaks?: true } | 'network down';

function answer(reply: Exclude<Reply, 'network down'>): Response {
  if (reply.breaks) {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.error(new TypeError('terminated')),
    });
    return new Response(body, { status: reply.status });
  }
  return new Response(reply.text ?? JSON.stringify(reply.body ?? {}), { status: reply.status });
}

function io(replies: Reply[]) {
  const requests: { method: string; url: string; headers: Record<string, string>; body?: unknown }[] = [];
  const out: string[] = [];
  const err: string[] = [];
  // The clock moves only by the client's own pauses.
  let now = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    const headers = Object.fromEntries(Object.entries(init?.headers ?? {}));
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({
      method: init?.method ?? 'GET',
      url: input instanceof Request ? input.url : input.toString(),
      headers,
      body,
    });
    const reply = replies.shift() ?? 'network down';
    if (reply === 'network down') return Promise.reject(new TypeError('fetch failed'));
    return Promise.resolve(answer(reply));
  };
  const client: ClientIO = {
    env: { ELICIT_RELAY_URL: 'http://relay:3000', ELICIT_RELAY_API_TOKEN: 'tok' },
    readFile: () => '',
    fetch,
    sleep: (ms) => {
      now += ms;
      return Promise.resolve();
    },
    now: () => now,
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t), isTTY: false },
  };
  return { client, requests, out, err };
}

const ASK = ['ask', '--message', 'Ship?', '--to', 'U1'];
const ended = (status: string, result: unknown) => ({ status: 200, body: { id: 'q1', status, result } });

describe('elicit-relay ask', () => {
  it('creates once with one Idempotency-Key across retries, asks again while pending, prints the result, exits 0', async () => {
    const { client, requests, out, err } = io([
      'network down',
      { status: 503 },
      { status: 201, body: { id: 'q1', status: 'pending' } },
      { status: 200, body: { id: 'q1', status: 'pending' } },
      ended('accepted', { action: 'accept', content: { ok: true } }),
    ]);
    expect(await runClient(ASK, client)).toBe(EXIT.accepted);
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((p) => p.headers['Idempotency-Key'])).size).toBe(1);
    expect(posts[0]).toMatchObject({
      url: 'http://relay:3000/api/v1/questions',
      headers: { Authorization: 'Bearer tok' },
      body: { message: 'Ship?', to: { user: 'U1' }, requestedSchema: { type: 'object', properties: {} } },
    });
    expect(requests.slice(3).map((r) => r.url)).toEqual([
      'http://relay:3000/api/v1/questions/q1?wait=60',
      'http://relay:3000/api/v1/questions/q1?wait=60',
    ]);
    expect(out.join('')).toBe('{"action":"accept","content":{"ok":true}}\n');
    expect(err.join('')).toBe('elicit-relay: waiting for an answer to question q1\n');
  });

  it.each([
    ['declined', { action: 'decline' }, EXIT.declined],
    ['cancelled', { action: 'cancel' }, EXIT.cancelled],
  ])('exits as the contract says when the question is %s', async (status, result, code) => {
    const { client, out } = io([
      { status: 201, body: { id: 'q1', status: 'pending' } },
      ended(status, result),
    ]);
    expect(await runClient(ASK, client)).toBe(code);
    expect(JSON.parse(out.join(''))).toEqual(result);
  });

  it('exits 4 with the API error on stderr for a refused request, 2 for an invalid one', async () => {
    const unauthorized = io([
      { status: 401, body: { error: { code: 'unauthorized', message: 'wrong token' } } },
    ]);
    expect(await runClient(ASK, unauthorized.client)).toBe(EXIT.error);
    expect(unauthorized.err.join('')).toBe('elicit-relay: 401 unauthorized: wrong token\n');
    const invalid = io([{ status: 400, body: { error: { code: 'invalid_schema', message: 'no' } } }]);
    expect(await runClient(ASK, invalid.client)).toBe(EXIT.usage);
  });

  // Each code the API answers with, by what it says: the command line typed wrong (2), or anything else (4).
  // Typed as every ApiErrorCode, so a code the API adds is classified here before this compiles.
  const EXIT_OF_REFUSAL: Record<ApiErrorCode, number> = {
    invalid_request: EXIT.usage,
    invalid_schema: EXIT.usage,
    payload_too_large: EXIT.usage,
    no_answerers: EXIT.error,
    answerers_unavailable: EXIT.error,
    missing_scope: EXIT.error,
    not_connected: EXIT.error,
    unauthorized: EXIT.error,
    forbidden: EXIT.error,
    not_found: EXIT.error,
    idempotency_conflict: EXIT.error,
    method_not_allowed: EXIT.error,
    unsupported_media_type: EXIT.error,
    invalid_json: EXIT.error,
    rate_limited: EXIT.error,
    unavailable: EXIT.error,
    internal: EXIT.error,
  };
  it.each(Object.entries(EXIT_OF_REFUSAL))(
    'exits by the API error code: %s → %i, saying what was wrong',
    async (code, exit) => {
      const status = Object.entries(API_ERRORS).find(([name]) => name === code)?.[1].status ?? 0;
      const refused = io([{ status, body: { error: { code, message: 'why' } } }]);
      expect(await runClient(ASK, refused.client)).toBe(exit);
      if (status < 500 && status !== 429)
        expect(refused.err.join('')).toBe(`elicit-relay: ${status} ${code}: why\n`);
    },
  );

  it("exits 4 for a 400 that is not the API's (a proxy's page, no error code)", async () => {
    const proxy = io([{ status: 400, text: '<html>Bad Request</html>' }]);
    expect(await runClient(ASK, proxy.client)).toBe(EXIT.error);
    expect(proxy.err.join('')).toBe('elicit-relay: 400 error: HTTP 400\n');
  });

  it('exits 4 when the bot cannot be reached through every retry, and 2 on wrong use', async () => {
    const down = io([]);
    expect(await runClient(ASK, down.client)).toBe(EXIT.error);
    expect(down.err.join('')).toMatch(/no answer from http:\/\/relay:3000/);
    expect(await runClient(['ask', '--to', 'U1'], io([]).client)).toBe(EXIT.usage);
  });
});

describe("elicit-relay ask, when answers break or are not the API's", () => {
  const created = { status: 201, body: { id: 'q1', status: 'pending' } };
  const broken = { status: 200, breaks: true } as const;

  it('asks again when a long-poll answer breaks off mid-body, like any network failure', async () => {
    const { client, requests, out } = io([created, broken, ended('declined', { action: 'decline' })]);
    expect(await runClient(ASK, client)).toBe(EXIT.declined);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
    expect(out.join('')).toBe('{"action":"decline"}\n');
  });

  it('asks a POST again with its Idempotency-Key when its answer breaks off', async () => {
    const { client, requests } = io([
      { status: 201, breaks: true },
      created,
      ended('accepted', { action: 'accept' }),
    ]);
    expect(await runClient(ASK, client)).toBe(EXIT.accepted);
    const keys = requests.filter((r) => r.method === 'POST').map((r) => r.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
  });

  it('exits 4 when every long-poll answer breaks for 5 min (no deadline in the answer), saying so', async () => {
    const { client, out, err } = io([created, ...Array.from({ length: 40 }, () => broken)]);
    expect(await runClient(ASK, client)).toBe(EXIT.error);
    expect(out.join('')).toBe('');
    expect(err.join('')).toContain(
      'elicit-relay: gave up on http://relay:3000: asked again until 5 min after it stopped answering ' +
        '(1970-01-01T00:00:00.000Z); the outcome of question q1 is unknown; last: TypeError: terminated\n',
    );
  });

  it.each([
    [
      'not JSON',
      { status: 200, text: '<html>upgrading</html>' },
      '/api/v1/questions/q1?wait=60 answered 200 without a JSON object',
    ],
    [
      'a JSON array',
      { status: 200, text: '[]' },
      '/api/v1/questions/q1?wait=60 answered 200 without a JSON object',
    ],
    [
      'without a status',
      { status: 200, body: { id: 'q1' } },
      '/api/v1/questions/q1 answered without a status',
    ],
  ])('exits 4, printing no outcome, when a 2xx long-poll answer is %s', async (_, reply, message) => {
    const { client, out, err } = io([created, reply]);
    expect(await runClient(ASK, client)).toBe(EXIT.error);
    expect(out.join('')).toBe('');
    expect(err.join('')).toContain(`elicit-relay: ${message}\n`);
  });

  it('resolves 4 with a line on stderr, never rejects, whatever fails', async () => {
    const { client, err } = io(['network down']);
    client.sleep = () => Promise.reject(new RangeError('no timers left'));
    await expect(runClient(ASK, client)).resolves.toBe(EXIT.error);
    expect(err.join('')).toBe('elicit-relay: unexpected error: RangeError: no timers left\n');
    const reading = io([]);
    reading.client.env = {};
    Object.defineProperty(reading.client.env, 'ELICIT_RELAY_URL', {
      get: () => {
        throw new Error('environment unreadable');
      },
    });
    await expect(runClient(ASK, reading.client)).resolves.toBe(EXIT.error);
    expect(reading.err.join('')).toBe('elicit-relay: unexpected error: Error: environment unreadable\n');
  });
});

describe('elicit-relay call', () => {
  it('prints the CallToolResult and exits 0 when completed, 4 when failed', async () => {
    const result = { content: [{ type: 'text', text: 'shipped' }] };
    const done = io([
      { status: 202, body: { id: 'c1', status: 'running' } },
      { status: 200, body: { id: 'c1', status: 'running', questions: [] } },
      { status: 200, body: { id: 'c1', status: 'completed', result, questions: ['q1'] } },
    ]);
    expect(await runClient(['call', '--server', 's', '--tool', 't', '--as', 'U1'], done.client)).toBe(
      EXIT.accepted,
    );
    expect(JSON.parse(done.out.join(''))).toEqual(result);
    expect(done.requests[0]?.body).toEqual({ server: 's', tool: 't', arguments: {}, as: { user: 'U1' } });
    const failed = io([
      { status: 202, body: { id: 'c1', status: 'running' } },
      { status: 200, body: { id: 'c1', status: 'failed', error: 'server gone', questions: [] } },
    ]);
    expect(await runClient(['call', '--server', 's', '--tool', 't', '--as', 'U1'], failed.client)).toBe(
      EXIT.error,
    );
    expect(failed.err.join('')).toContain('the call failed: server gone');
  });
});
