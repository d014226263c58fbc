// The bot's CPU per MCP session start (issue #19 goals 6b, 7a, 7b): N people each run one `echo` call on the
// elicit fixture over Streamable HTTP (its own process), so each call opens that person's first session; then
// the same N people call again on the sessions now open. The difference per call is what a session start
// costs this process (transport, initialize, notifications/initialized, the standalone GET stream, the SDK's
// response validation), measured with process.cpuUsage(): the fixture's own CPU is not counted.
import { McpHub } from '../src/mcp/index.js';
import { startHttpFixture } from './fixture-http.js';
import type { Row } from './stats.js';

const GROUP = 'mcp session starts';

/** The calls ask nothing; a question would fail the bench. */
const sink = { ask: () => Promise.reject(new Error('the session-start bench asks no questions')) };

/** CPU µs (user + system) of this process while `work` ran, and its wall time in µs. */
async function measure(work: () => Promise<unknown>): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await work();
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  return { cpuUs: user + system, wallUs };
}

/** A row of one figure (CPU µs per call): p50 = p95 = p99 = max, since only the total is measured. */
function perCall(name: string, n: number, cpuUs: number, note: string, wallUs?: number): Row {
  const us = Math.round(cpuUs / n);
  return {
    group: GROUP,
    name,
    n,
    p50: us,
    p95: us,
    p99: us,
    max: us,
    ...(wallUs === undefined ? {} : { opsPerSec: Math.round((n * 1e6) / wallUs) }),
    note,
  };
}

/** `people` first calls (a session start each), `concurrency` at a time, then the same calls again. */
export async function sessionStartsBench(people: number, concurrency: number): Promise<Row[]> {
  const fixture = await startHttpFixture();
  const hub = new McpHub({
    servers: [
      {
        name: 'fixture',
        transport: { kind: 'http', url: fixture.url, headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink,
  });
  hub.start();
  const call = (userId: string) =>
    hub.callTool({
      server: 'fixture',
      tool: 'echo',
      args: { text: 'hi' },
      origin: { userId, teamId: 'T1' },
    });
  const everyone = async (): Promise<void> => {
    for (let i = 0; i < people; i += concurrency) {
      const wave = Array.from({ length: Math.min(concurrency, people - i) }, (_, k) => call(`U${i + k}`));
      await Promise.all(wave);
    }
  };
  try {
    // The era probe, the tool list and the first compilation of every code path, on someone else.
    await call('WARM');
    const first = await measure(everyone);
    const again = await measure(everyone);
    const note = `CPU µs per call in the bot's process, ${concurrency} at a time`;
    return [
      perCall('first call per person (session start + echo)', people, first.cpuUs, note, first.wallUs),
      perCall('call on an open session (echo)', people, again.cpuUs, note, again.wallUs),
      perCall('session start alone (difference)', people, first.cpuUs - again.cpuUs, 'CPU µs per start'),
    ];
  } finally {
    await hub.close();
    await fixture.close();
  }
}
