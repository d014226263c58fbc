// A 2026-07-28 tool whose `x-mcp-header` declaration (SEP-2243) the SDK refuses: its arguments cannot be mirrored
// into `Mcp-Param-*` headers, so the SDK's own tools/list leaves it out. Before, the bot listed it as runnable
// when a malformed tool elsewhere sent the listing down the lenient path (which judged each tool by the era's
// codec only), and its call went without headers: the SDK's server refused a `number` one (HTTP 400, -32020, a
// header missing: "tool numbered on headers failed (JSON-RPC -32020)") and ran one declaring a header twice with
// none; when the SDK's listing filtered it, it was silently missing (no left-out note) and a call by name was
// still sent, alike. Now either listing refuses it as malformed_tool, by name, under the
// property's `x-mcp-header`, and never calls it; a valid declaration's tool runs with its header mirrored. A real
// SDK McpServer over Streamable HTTP in process, and the real McpHub.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpHub } from '../../src/mcp/hub.js';
import { McpClientError } from '../../src/mcp/types.js';
import { headerTools2026, type HeaderToolsRecord, type ListedTool } from '../fixtures/header-tools-2026.js';
import { handlerHub } from './malformed-hub.js';

const origin = { userId: 'U1' };
const URL_2026 = 'http://header-tools-2026.test/mcp';
const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** A valid declaration: `region` mirrored into Mcp-Param-Region. */
const ROUTED = {
  name: 'routed',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
};
/** `number` is not one of the primitive types the spec admits (the SDK's server still checks the header). */
const NUMBERED = {
  name: 'numbered',
  inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
};
/** Two declarations of one header name, told apart by case only. */
const TWICE = {
  name: 'twice',
  inputSchema: {
    type: 'object',
    properties: {
      from: { type: 'string', 'x-mcp-header': 'Zone' },
      to: { type: 'string', 'x-mcp-header': 'zone' },
    },
  },
};
/** The 2026 schema refuses it (its inputSchema is no object's): the listing is read leniently, tool by tool. */
const BAD_TYPE = { name: 'bad_type', inputSchema: { type: 'string' } };

function makeHub(tools: ListedTool[]) {
  const record: HeaderToolsRecord = { listed: 0, runs: [] };
  return { hub: handlerHub('headers', URL_2026, headerTools2026(record, tools), hubs), record };
}

/** How a call ended: its text, or its error's code and message. */
const outcome = (promise: Promise<{ text: string }>) =>
  promise.then(
    ({ text }) => ({ text }),
    (error: unknown) =>
      error instanceof McpClientError ? { code: error.code, message: error.message } : { error },
  );

const NUMBER_PROBLEM =
  'x-mcp-header is only permitted on primitive-typed properties (string, integer, boolean); got number';
const TWICE_PROBLEM = "x-mcp-header 'zone' is not case-insensitively unique (also declared as 'Zone')";

describe.each([
  ['the lenient listing (a malformed tool beside them)', [BAD_TYPE, ROUTED, NUMBERED, TWICE], 2],
  ["the SDK's listing (no malformed tool)", [ROUTED, NUMBERED, TWICE], 1],
])('2026-07-28 tools with x-mcp-header declarations, through %s', (_how, tools, reads) => {
  it('refuses the invalid ones by name, under the property, and leaves them out', async () => {
    const { hub, record } = makeHub(tools);
    expect((await hub.listTools('headers', origin)).map((tool) => tool.name)).toEqual(['routed']);
    expect(hub.status()[0]?.protocolVersion).toBe('2026-07-28');
    expect(record.listed, 'which listing read it').toBe(reads);
    const { refused } = await hub.toolListing('headers', origin);
    expect(refused.filter((tool) => tool.name !== 'bad_type')).toEqual([
      {
        name: 'numbered',
        problem: { path: ['inputSchema', 'properties', 'n', 'x-mcp-header'], message: NUMBER_PROBLEM },
        inputSchema: NUMBERED.inputSchema,
      },
      {
        name: 'twice',
        problem: { path: ['inputSchema', 'properties', 'to', 'x-mcp-header'], message: TWICE_PROBLEM },
        inputSchema: TWICE.inputSchema,
      },
    ]);
  });

  it('never calls an invalid one; runs the valid one with its argument mirrored into Mcp-Param-Region', async () => {
    const { hub, record } = makeHub(tools);
    const numbered = await outcome(
      hub.callTool({ server: 'headers', tool: 'numbered', args: { n: 7 }, origin }),
    );
    expect(numbered).toEqual({
      code: 'malformed_tool',
      message: `numbered on headers was not run: its definition is malformed (inputSchema.properties.n.x-mcp-header: ${NUMBER_PROBLEM})`,
    });
    const twice = await outcome(
      hub.callTool({ server: 'headers', tool: 'twice', args: { from: 'a', to: 'b' }, origin }),
    );
    expect(twice).toMatchObject({ code: 'malformed_tool' });
    const routed = hub.callTool({ server: 'headers', tool: 'routed', args: { region: 'eu-west' }, origin });
    expect(await outcome(routed)).toEqual({ text: 'ran routed {"region":"eu-west"}' });
    expect(record.runs).toEqual([
      { name: 'routed', args: { region: 'eu-west' }, headers: { 'mcp-param-region': 'eu-west' } },
    ]);
  });
});

/** Each case's tool: its inputSchema, and where its declarations break the SDK's rules (none: valid). */
const CASES: [string, Record<string, unknown>, string[] | undefined][] = [
  ['string', { region: { type: 'string', 'x-mcp-header': 'Region' } }, undefined],
  [
    'nested_integer_boolean',
    {
      a: { type: 'object', properties: { b: { type: 'integer', 'x-mcp-header': 'B' } } },
      c: { type: 'boolean', 'x-mcp-header': 'C' },
    },
    undefined,
  ],
  ['undeclared', { plain: { type: 'string' } }, undefined],
  ['number', { n: { type: 'number', 'x-mcp-header': 'N' } }, ['properties', 'n']],
  ['object', { o: { type: 'object', 'x-mcp-header': 'O' } }, ['properties', 'o']],
  ['untyped', { u: { 'x-mcp-header': 'U' } }, ['properties', 'u']],
  ['type_list', { u: { type: ['string', 'null'], 'x-mcp-header': 'U' } }, ['properties', 'u']],
  ['empty_name', { e: { type: 'string', 'x-mcp-header': '' } }, ['properties', 'e']],
  ['number_name', { e: { type: 'string', 'x-mcp-header': 42 } }, ['properties', 'e']],
  ['spaced_name', { s: { type: 'string', 'x-mcp-header': 'Bad Name' } }, ['properties', 's']],
  ['colon_name', { s: { type: 'string', 'x-mcp-header': 'a:b' } }, ['properties', 's']],
  [
    'duplicate',
    { a: { type: 'string', 'x-mcp-header': 'Zone' }, b: { type: 'integer', 'x-mcp-header': 'ZONE' } },
    ['properties', 'b'],
  ],
  [
    'under_items',
    { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'L' } } },
    ['properties', 'list', 'items'],
  ],
  [
    'under_any_of',
    { v: { anyOf: [{ type: 'string' }, { type: 'string', 'x-mcp-header': 'V' }] } },
    ['properties', 'v', 'anyOf', '1'],
  ],
  [
    'number_first',
    { n: { type: 'number', 'x-mcp-header': 'N' }, s: { type: 'string', 'x-mcp-header': 'Bad Name' } },
    ['properties', 'n'],
  ],
  [
    'number_then_duplicate',
    { n: { type: 'number', 'x-mcp-header': 'N' }, m: { type: 'string', 'x-mcp-header': 'n' } },
    ['properties', 'n'],
  ],
];

/** Cases whose declaration sits on the inputSchema itself rather than under `properties`. */
const SCHEMA_CASES: [string, Record<string, unknown>, string[]][] = [
  ['at_root', { type: 'object', 'x-mcp-header': 'Root' }, []],
  ['under_defs', { type: 'object', $defs: { D: { type: 'string', 'x-mcp-header': 'D' } } }, ['$defs', 'D']],
  [
    'under_additional_properties',
    { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'A' } },
    ['additionalProperties'],
  ],
  [
    'under_pattern_properties',
    { type: 'object', patternProperties: { '^a': { type: 'string', 'x-mcp-header': 'P' } } },
    ['patternProperties', '^a'],
  ],
];

const JUDGED = [
  ...CASES.map(([name, properties, at]) => ({ name, inputSchema: { type: 'object', properties }, at })),
  ...SCHEMA_CASES.map(([name, inputSchema, at]) => ({ name, inputSchema, at })),
];

/** The SDK's own Client listing the tools: the names it keeps, and its reason for each it leaves out. */
async function sdkListing(tools: ListedTool[]) {
  const record: HeaderToolsRecord = { listed: 0, runs: [] };
  const handler = headerTools2026(record, tools);
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
  const client = new Client({ name: 'sdk', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_2026), { fetch }));
    const kept = (await client.listTools()).tools.map((tool) => tool.name);
    const reasons = new Map<string, string>();
    for (const [line] of warn.mock.calls) {
      const left = /^\[mcp-sdk\] excluding tool '(.+)' from tools\/list: .* — (.*)$/s.exec(String(line));
      if (left?.[1] !== undefined && left[2] !== undefined) reasons.set(left[1], left[2]);
    }
    return { kept, reasons };
  } finally {
    warn.mockRestore();
    await client.close();
  }
}

describe("x-mcp-header declarations judged as the SDK's own listing judges them", () => {
  it.each([
    ["the SDK's listing", JUDGED],
    ['the lenient listing', [BAD_TYPE, ...JUDGED]],
  ])('through %s: the same tools kept, the others refused in its words', async (_how, tools) => {
    const sdk = await sdkListing(JUDGED);
    const { hub } = makeHub(tools);
    expect((await hub.listTools('headers', origin)).map((tool) => tool.name)).toEqual(sdk.kept);
    const refused = (await hub.toolListing('headers', origin)).refused.filter((t) => t.name !== 'bad_type');
    expect(refused.map((tool) => tool.name)).toEqual([...sdk.reasons.keys()]);
    expect(sdk.kept).toEqual(JUDGED.filter(({ at }) => at === undefined).map(({ name }) => name));
    for (const { name, problem } of refused) {
      const at = JUDGED.find((tool) => tool.name === name)?.at;
      expect(problem.path, name).toEqual(['inputSchema', ...(at ?? ['?']), 'x-mcp-header']);
      expect(sdk.reasons.get(name)?.endsWith(problem.message), `${name}: ${problem.message}`).toBe(true);
    }
  });
});
