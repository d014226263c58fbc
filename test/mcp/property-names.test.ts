// Every property name a schema can hold reaches the server with its value, `__proto__` included: the SDK's
// client wrapper used to copy the answer through a zod record, where that name became a prototype instead.
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { McpServerSpec } from '../../src/mcp/types.js';
import type { Outcome } from '../../src/relay/types.js';
import { fixtureCommand } from '../setup/compiled.js';
import { askArgs, inMemoryConnect, inMemorySpec, recordingSink, repoRoot } from './support.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', ''];
const SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(NAMES.map((name) => [name, { type: 'string' }])),
  required: NAMES,
};
// The store hands the relay its answers through JSON.parse, which keeps `__proto__` as an own property.
const ANSWER = JSON.parse(
  '{"__proto__":"p","constructor":"c","toString":"t","hasOwnProperty":"h","":"empty"}',
) as Record<string, string>;
const accepted = (): Outcome => ({ action: 'accept', content: ANSWER });

const stdioSpec: McpServerSpec = {
  name: 'fixture',
  transport: {
    kind: 'stdio',
    ...fixtureCommand(),
    env: {},
    cwd: repoRoot,
  },
  elicitationTimeoutMs: 60_000,
};

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** The content the server received, as own [name, value] pairs in name order. */
async function receivedContent(hub: McpHub): Promise<[string, unknown][]> {
  const args = askArgs(SCHEMA, { raw: true });
  const result = await hub.callTool({ server: 'fixture', tool: 'ask', args, origin: { userId: 'U1' } });
  const answer = JSON.parse(result.text) as { action: string; content: Record<string, unknown> };
  expect(answer.action).toBe('accept');
  return Object.entries(answer.content).sort(([a], [b]) => a.localeCompare(b));
}

const EXPECTED = Object.entries(ANSWER).sort(([a], [b]) => a.localeCompare(b));

describe('an answer whose property names are those of Object.prototype', () => {
  it('reaches a server over stdio with every property, __proto__ included', async () => {
    const hub = new McpHub({ servers: [stdioSpec], sink: recordingSink(accepted) });
    hubs.push(hub);
    expect(await receivedContent(hub)).toEqual(EXPECTED);
  });

  it('reaches an in-memory server with every property, __proto__ included', async () => {
    const memory = inMemoryConnect();
    const hub = new McpHub({
      servers: [inMemorySpec()],
      sink: recordingSink(accepted),
      connect: memory.connect,
    });
    hubs.push(hub);
    expect(await receivedContent(hub)).toEqual(EXPECTED);
  });
});
