// The command-line client against a bot that says "not now": 429 rate_limited and 503 unavailable both come with
// Retry-After (src/api/errors.ts), and a bot whose Redis fails over or that restarts answers 503 or nothing for a
// while. The HTTP side is scripted through the injected fetch; the injected sleep records every pause and moves
// the injected clock on by it, so no test waits in real time.
import { describe, expect, it } from 'vitest';
import { EXIT, runClient, type ClientIO } from '../../src/client/index.js';

/** `retryAfter`: delay-seconds (a number) or an HTTP-date (a string), sent as the Retry-After header. */
type Reply = { status: number; body?: unknown; retryAfter?: number | string } | 'network down';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The client's clock when it sent the request, in ms since the epoch. */
  at: number;
}

/** Where the scripted clock starts: 2030-01-01T00:00:00Z. */
const T0 = Date.UTC(2030, 0, 1);

function scripted(replies: Reply[]) {
  const sent: Sent[] = [];
  const pauses: number[] = [];
  const out: string[] = [];
  const err: string[] = [];
  let now = T0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    const headers = Object.fromEntries(Object.entries(init?.headers ?? {}));
    const url = input instanceof Request ? input.url : input.toString();
    sent.push({ method: init?.method ?? 'GET', url, headers, at: now });
    const reply = replies.shift() ?? 'network down';
    if (reply === 'network down') return Promise.reject(new TypeError('fetch failed'));
    const replyHeaders = new Headers({ 'Content-Type': 'application/json' });
    if (reply.retryAfter !== undefined) replyHeaders.set('Retry-After', String(reply.retryAfter));
    const response = new Response(JSON.stringify(reply.body ?? {}), {
      status: reply.status,
      headers: replyHeaders,
    });
    return Promise.resolve(response);
  };
  const io: ClientIO = {
    env: { ELICIT_RELAY_URL: 'http://relay:3000', ELICIT_RELAY_API_TOKEN: 'tok' },
    readFile: () => '',
    fetch,
    sleep: (ms) => {
      pauses.push(ms);
      now += ms;
      return Promise.resolve();
    },
    now: () => now,
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t), isTTY: false },
  };
  return { io, sent, pauses, out, err };
}

const ASK = ['ask', '--message', 'Deploy 4711?', '--to', 'C0123APPROVALS', '--timeout', '2h'];
const created = { status: 201, body: { id: 'q1', status: 'pending', deadline: '2099-01-01T00:00:00.000Z' } };
const accepted = { status: 200, body: { id: 'q1', status: 'accepted', result: { action: 'accept' } } };
const rateLimited = {
  status: 429,
  retryAfter: 7,
  body: { error: { code: 'rate_limited', message: 'More than 30 questions a minute; retry later.' } },
};
const unavailable = (retryAfter: number) => ({
  status: 503,
  retryAfter,
  body: {
    error: { code: 'unavailable', message: 'The bot cannot store or read this right now; retry shortly.' },
  },
});

describe('elicit-relay ask against a bot that answers "not now"', () => {
  it("waits a 429's Retry-After and asks again with the same Idempotency-Key, then exits as the answer says", async () => {
    const { io, sent, pauses, err } = scripted([rateLimited, created, accepted]);
    const code = await runClient(ASK, io);
    expect(err.join('')).not.toContain('429');
    expect(code).toBe(EXIT.accepted);
    const posts = sent.filter((s) => s.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(new Set(posts.map((p) => p.headers['Idempotency-Key'])).size).toBe(1);
    expect(pauses[0]).toBeGreaterThanOrEqual(7_000);
  });

  it("waits at least a 503's Retry-After before asking again", async () => {
    const { io, pauses } = scripted([unavailable(5), unavailable(5), unavailable(5), created, accepted]);
    const code = await runClient(ASK, io);
    expect(pauses.filter((ms) => ms < 5_000)).toEqual([]);
    expect(code).toBe(EXIT.accepted);
  });

  it('keeps waiting for a pending question through a bot outage longer than half a minute, and exits with its answer', async () => {
    // The bot restarts (connections refused), then its Redis fails over (503, Retry-After: 2 s), for about
    // two minutes in all, while the question stays pending in Redis and is answered meanwhile.
    const outage: Reply[] = [
      ...Array.from({ length: 6 }, (): Reply => 'network down'),
      ...Array.from({ length: 12 }, () => unavailable(2)),
    ];
    const { io, out, err } = scripted([
      created,
      { status: 200, body: { id: 'q1', status: 'pending' } },
      ...outage,
      accepted,
    ]);
    const code = await runClient(ASK, io);
    expect(err.join('')).not.toContain('no answer from');
    expect(code).toBe(EXIT.accepted);
    expect(out.join('')).toBe('{"action":"accept"}\n');
  });
});

describe('elicit-relay ask, how long it waits for a bot that is gone or says "not now"', () => {
  it('reads a Retry-After given as an HTTP date, and waits no longer than a minute for a larger one', async () => {
    const at20s = new Date(T0 + 20_000).toUTCString();
    const { io, pauses } = scripted([
      { ...rateLimited, retryAfter: at20s },
      { ...rateLimited, retryAfter: 3_600 },
      created,
      accepted,
    ]);
    expect(await runClient(ASK, io)).toBe(EXIT.accepted);
    expect(pauses).toEqual([20_000, 60_000]);
  });

  it('gives up creating after 5 min of 429s, exit 4 with the last refusal on stderr', async () => {
    const { io, sent, err } = scripted(Array.from({ length: 40 }, () => rateLimited));
    expect(await runClient(ASK, io)).toBe(EXIT.error);
    const last = sent.at(-1)?.at ?? 0;
    expect(last - T0).toBeGreaterThanOrEqual(5 * 60_000);
    expect(last - T0).toBeLessThan(6 * 60_000);
    expect(err.join('')).toBe(
      'elicit-relay: gave up on http://relay:3000: asked again for 5 min; last: Error: HTTP 429 rate_limited: ' +
        'More than 30 questions a minute; retry later.\n',
    );
  });

  it('says on stderr that it waits for the bot to come back, and when it is back, pausing at most 30 s', async () => {
    const { io, pauses, err } = scripted([
      created,
      ...Array.from({ length: 12 }, (): Reply => 'network down'),
      { status: 200, body: { id: 'q1', status: 'pending' } },
      accepted,
    ]);
    expect(await runClient(ASK, io)).toBe(EXIT.accepted);
    expect(pauses).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000,
    ]);
    expect(err.join('')).toBe(
      [
        'elicit-relay: waiting for an answer to question q1',
        'elicit-relay: waiting for the bot to come back (TypeError: fetch failed); asking again until 2099-01-01T00:05:00.000Z',
        'elicit-relay: the bot answers again; waiting for an answer to question q1',
        '',
      ].join('\n'),
    );
  });

  it("gives up 5 min past the question's deadline when the bot stays gone, exit 4 saying the outcome is unknown", async () => {
    const deadline = new Date(T0 + 10 * 60_000).toISOString();
    const { io, sent, out, err } = scripted([
      { status: 201, body: { id: 'q1', status: 'pending', deadline } },
    ]);
    expect(await runClient(ASK, io)).toBe(EXIT.error);
    const gets = sent.filter((s) => s.method === 'GET');
    expect(gets.at(-2)?.at).toBeLessThan(T0 + 15 * 60_000);
    expect(gets.at(-1)?.at).toBeGreaterThanOrEqual(T0 + 15 * 60_000);
    expect(out.join('')).toBe('');
    expect(err.join('')).toContain(
      `elicit-relay: gave up on http://relay:3000: asked again until 5 min past question q1's deadline (${deadline}); ` +
        'the outcome of question q1 is unknown; last: TypeError: fetch failed\n',
    );
  });

  it('rides out an outage of 5 min from its start when the question is already past its deadline', async () => {
    const deadline = new Date(T0 - 60_000).toISOString();
    const { io, sent } = scripted([{ status: 201, body: { id: 'q1', status: 'pending', deadline } }]);
    expect(await runClient(ASK, io)).toBe(EXIT.error);
    const gets = sent.filter((s) => s.method === 'GET');
    expect(gets.at(-1)?.at).toBeGreaterThanOrEqual(T0 + 5 * 60_000);
    expect(gets.at(-1)?.at).toBeLessThan(T0 + 6 * 60_000);
  });
});

describe('elicit-relay call through a bot outage', () => {
  const CALL = ['call', '--server', 'deploys', '--tool', 'release', '--as', 'U0123ALICE'];

  it('keeps waiting for a running call through an outage, then exits as the call ended', async () => {
    const result = { content: [{ type: 'text', text: 'released' }] };
    const { io, out, err } = scripted([
      { status: 202, body: { id: 'c1', status: 'running' } },
      ...Array.from({ length: 8 }, (): Reply => 'network down'),
      unavailable(2),
      { status: 200, body: { id: 'c1', status: 'completed', result, questions: [] } },
    ]);
    expect(await runClient(CALL, io)).toBe(EXIT.accepted);
    expect(JSON.parse(out.join(''))).toEqual(result);
    expect(err.join('')).toContain('waiting for the bot to come back (TypeError: fetch failed)');
  });

  it('gives up on a call after 5 min of outage (a call has no deadline), exit 4', async () => {
    const { io, sent, err } = scripted([{ status: 202, body: { id: 'c1', status: 'running' } }]);
    expect(await runClient(CALL, io)).toBe(EXIT.error);
    expect(sent.at(-1)?.at).toBeGreaterThanOrEqual(T0 + 5 * 60_000);
    expect(err.join('')).toContain(
      `gave up on http://relay:3000: asked again until 5 min after it stopped answering (${new Date(T0).toISOString()}); ` +
        'the outcome of call c1 is unknown',
    );
  });
});
