// Against an outside peer: @modelcontextprotocol/server-everything over stdio.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { McpServerSpec } from '../../src/mcp/types.js';
import { recordingSink } from './support.js';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
const { bin } = require('@modelcontextprotocol/server-everything/package.json') as {
  bin: Record<string, string>;
};

const spec: McpServerSpec = {
  name: 'everything',
  transport: {
    kind: 'stdio',
    command: process.execPath,
    args: [join(packageDir, bin['mcp-server-everything'] ?? 'dist/index.js'), 'stdio'],
    env: {},
  },
  elicitationTimeoutMs: 60_000,
};

const content = {
  name: 'Ada Lovelace',
  check: true,
  email: 'ada@example.com',
  integer: 7,
  untitledMultipleSelectEnum: ['Piano'],
  titledSingleSelectEnum: 'hero-3',
};

let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
});

describe('McpHub against server-everything (stdio)', () => {
  it('answers trigger-elicitation-request and the tool result reflects the accepted content', async () => {
    const sink = recordingSink(() => ({ action: 'accept', content }));
    hub = new McpHub({ servers: [spec], sink });
    const tools = (await hub.listTools('everything')).map((t) => t.name);
    expect(tools).toContain('trigger-elicitation-request');

    const result = await hub.callTool({
      server: 'everything',
      tool: 'trigger-elicitation-request',
      args: {},
      origin: { userId: 'U1' },
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('User provided the requested information');
    expect(result.text).toContain('Ada Lovelace');
    expect(result.text).toContain('ada@example.com');

    // It sends no `mode`: that is form mode, with the whole raw schema (13 fields, enumNames kept).
    const asked = sink.asked[0]?.request;
    expect(asked?.mode).toBe('form');
    const schema = (asked as { requestedSchema: { properties: Record<string, Record<string, unknown>> } })
      .requestedSchema;
    expect(Object.keys(schema.properties)).toHaveLength(13);
    expect(schema.properties['legacyTitledEnum']?.['enumNames']).toEqual([
      'Cats',
      'Dogs',
      'Birds',
      'Fish',
      'Reptiles',
    ]);
    expect(sink.asked[0]?.ctx).toMatchObject({ server: 'everything', origin: { userId: 'U1' } });
  });

  it('answers decline and the tool result says so', async () => {
    hub = new McpHub({ servers: [spec], sink: recordingSink(() => ({ action: 'decline' })) });
    const result = await hub.callTool({
      server: 'everything',
      tool: 'trigger-elicitation-request',
      args: {},
      origin: { userId: 'U1' },
    });
    expect(result.text).toContain('declined');
  });
});
