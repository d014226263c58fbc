// A tool listed with an outputSchema that cannot be compiled (by the validator that checks its results,
// output-check.ts). Before, it was listed as runnable: `/mcp tools` offered it and the run form opened, and only
// the run was refused (on a 2025 session; a 2026 one ran it unchecked). Now the listing refuses it as it refuses
// any malformed definition, by name, under `outputSchema`, on either era and whichever listing read it (the
// SDK's, or the lenient one a tool the MCP schema refuses brings): left out of the tools, never called. Real SDK
// servers: the 1.x low-level Server in memory (2025) and the 2.x low-level Server over Streamable HTTP in process
// (2026-07-28).
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHub } from '../../src/mcp/hub.js';
import { McpClientError } from '../../src/mcp/types.js';
import { malformedTools2026 } from '../fixtures/malformed-tools-2026.js';
import { handlerHub, malformedToolsHub } from './malformed-hub.js';

const origin = { userId: 'U1' };
const URL_2026 = 'http://output-schemas-2026.test/mcp';
const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

const PING = { name: 'ping', inputSchema: { type: 'object' } };
const MEASURED = {
  name: 'measured',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
};
/** Both eras' MCP schema takes it (a property's schema is anything); ajv cannot compile an unknown type. */
const UNCOMPILABLE = {
  name: 'uncompilable',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'nonsense' } } },
};
/** The MCP schema refuses it, so the listing is read leniently, tool by tool. */
const BAD_TYPE = { name: 'bad_type', inputSchema: { type: 'string' } };

/** What ajv says of UNCOMPILABLE's outputSchema. */
const COMPILE_ERROR = 'type must be JSONType or JSONType[]: nonsense';

type Era = '2025' | '2026-07-28';

/** A hub whose server 'listing' lists `tools` in the era's result, recording each tools/list and tools/call. */
function makeHub(era: Era, tools: Record<string, unknown>[]) {
  if (era === '2025') return malformedToolsHub('listing', tools, hubs);
  const record = { listed: [] as (string | undefined)[], calls: [] as string[] };
  const handler = malformedTools2026(record, { tools, ttlMs: 0, cacheScope: 'private' });
  return { hub: handlerHub('listing', URL_2026, handler, hubs), record };
}

const cases: [Era, string, Record<string, unknown>[], number][] = [
  ['2025', "the SDK's listing", [PING, UNCOMPILABLE, MEASURED], 1],
  ['2025', 'the lenient listing', [PING, BAD_TYPE, UNCOMPILABLE, MEASURED], 2],
  ['2026-07-28', "the SDK's listing", [PING, UNCOMPILABLE, MEASURED], 1],
  ['2026-07-28', 'the lenient listing', [PING, BAD_TYPE, UNCOMPILABLE, MEASURED], 2],
];

describe('a listed outputSchema that cannot be compiled', () => {
  it.each(cases)(
    'on %s, through %s, refuses the tool by name and never calls it',
    async (era, _how, tools, reads) => {
      const { hub, record } = makeHub(era, tools);
      expect((await hub.listTools('listing', origin)).map((tool) => tool.name)).toEqual(['ping', 'measured']);
      expect(hub.status()[0]?.protocolVersion?.startsWith(era)).toBe(true);
      expect(record.listed, 'which listing read it').toHaveLength(reads);
      const { refused } = await hub.toolListing('listing', origin);
      expect(refused.find((tool) => tool.name === 'uncompilable')).toEqual({
        name: 'uncompilable',
        problem: { path: ['outputSchema'], message: COMPILE_ERROR },
        inputSchema: { type: 'object' },
      });
      const ran = await hub.callTool({ server: 'listing', tool: 'uncompilable', args: {}, origin }).then(
        () => ({}),
        (error: unknown) =>
          error instanceof McpClientError ? { code: error.code, message: error.message } : { error },
      );
      expect(ran).toEqual({
        code: 'malformed_tool',
        message: `uncompilable on listing was not run: its definition is malformed (outputSchema: ${COMPILE_ERROR})`,
      });
      const pinged = await hub.callTool({ server: 'listing', tool: 'ping', args: {}, origin });
      expect(pinged).toMatchObject({ isError: false, text: 'ran ping {}' });
      expect(record.calls, 'only the well-formed tool was called').toEqual(['ping']);
    },
  );
});
