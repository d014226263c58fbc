// A plain 2025 tool call whose server keeps sending progress was never bounded: each notification is a sign of life
// that re-arms the call's silence watchdog (call.ts; the hub sets no SDK timeout, so the SDK's maxTotalTimeout
// never applied), so a person's `/mcp run`, which has no deadline and no cancel, kept its session and its
// "working…" message forever. Such a call now fails as timed out once it has worked 24 h (WORKING_MAX_MS, the limit
// a task call already had), naming the limit; a caller's own timeoutMs bounds it instead, and a question of the
// call open is not work. Time is the hand clock's: the server moves it on a minute before each notification.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CallRun, WORKING_MAX_MS } from '../../src/mcp/call.js';
import { McpHub } from '../../src/mcp/hub.js';
import { McpClientError } from '../../src/mcp/types.js';
import { handClock, inMemorySpec, recordingSink } from './support.js';

const START = 1_700_000_000_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Where the server gives up on its own and answers, if the call is still waiting (the code before never did). */
const SERVER_GIVES_UP_MS = 30 * HOUR_MS;

/** A 2025 server whose tool `watch` sends progress every (virtual) minute until cancelled or SERVER_GIVES_UP_MS. */
function progressLoopServer(time: ReturnType<typeof handClock>) {
  const record = { notifications: 0 };
  const server = new Server({ name: 'watcher', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'watch', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    if (progressToken === undefined) throw new Error('the client sent no progressToken');
    for (let progress = 1; time.clock.now() - START < SERVER_GIVES_UP_MS; progress += 1) {
      if (extra.signal.aborted) break;
      time.advance(MINUTE_MS);
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress } });
      record.notifications += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { content: [{ type: 'text', text: 'watched' }] };
  });
  return { server, record };
}

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** Runs `watch` once: how it ended and after how many hours of virtual time. */
async function runWatch(timeoutMs?: number) {
  const time = handClock(START);
  const { server, record } = progressLoopServer(time);
  const hub = new McpHub({
    servers: [inMemorySpec('loop')],
    sink: recordingSink(() => ({ action: 'cancel' })),
    clock: time.clock,
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      await server.connect(side);
      return client;
    },
  });
  hubs.push(hub);
  const call = {
    server: 'loop',
    tool: 'watch',
    args: {},
    origin: { userId: 'U1' },
    onProgress: () => undefined,
  };
  const ended = await hub.callTool(timeoutMs === undefined ? call : { ...call, timeoutMs }).then(
    (result) => ['result', result.text],
    (error: unknown) =>
      error instanceof McpClientError ? [error.code, error.message] : ['thrown', String(error)],
  );
  return { ended, hours: (time.clock.now() - START) / HOUR_MS, record };
}

describe('a plain 2025 tool call whose server sends progress forever', () => {
  it('fails a call with no deadline of its own after 24 h of work, naming the limit', async () => {
    const { ended, hours, record } = await runWatch();
    expect(ended).toEqual([
      'timeout',
      'tool watch on loop timed out: it worked 24 h without a result, the most a call without a deadline of its own may',
    ]);
    expect(hours).toBeGreaterThanOrEqual(24);
    expect(hours).toBeLessThan(24 + 2 * (MINUTE_MS / HOUR_MS));
    expect(record.notifications).toBeGreaterThanOrEqual(WORKING_MAX_MS / MINUTE_MS);
  });

  it('leaves a call with its own deadline to that deadline, even past 24 h', async () => {
    const { ended, hours } = await runWatch(25 * HOUR_MS);
    expect(ended).toEqual(['timeout', 'tool watch on loop timed out']);
    expect(hours).toBeGreaterThanOrEqual(25);
    expect(hours).toBeLessThan(25 + 2 * (MINUTE_MS / HOUR_MS));
  });
});

describe('the working limit of a plain call, on the call itself', () => {
  const call = { server: 'loop', tool: 'watch', args: {}, origin: { userId: 'U1' } };
  const SILENCE_MS = 10 * 60_000;

  /** Progress every minute for `ms`. */
  const work = (run: CallRun, time: ReturnType<typeof handClock>, ms: number): void => {
    for (let at = 0; at < ms; at += MINUTE_MS) {
      time.advance(MINUTE_MS);
      run.progress({ progress: at });
    }
  };

  it('never counts the time a person answers a question of the call (a 2025 elicitation) as work', () => {
    const time = handClock(START);
    const run = new CallRun(call, SILENCE_MS, time.clock);
    work(run, time, 23 * HOUR_MS);
    const closed = run.questionOpened(new AbortController());
    time.advance(2 * 24 * HOUR_MS);
    closed();
    work(run, time, 30 * MINUTE_MS);
    expect(run.timedOut).toBe(false);
    work(run, time, HOUR_MS);
    expect(run.timedOut).toBe(true);
    expect(run.timeoutReason).toContain('24 h');
  });
});
