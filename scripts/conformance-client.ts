// The client command the conformance CLI runs: `node --import tsx scripts/conformance-client.ts <url>`.
// It drives the relay's real MCP client (McpHub over Streamable HTTP) the way the bot does: list the
// tools, call each one, and accept every elicitation with empty content so that the SDK's applyDefaults
// fills in the schema defaults (scenario elicitation-sep1034-client-defaults checks exactly that). A scenario
// that names its own calls in MCP_CONFORMANCE_CONTEXT (0.2.0-alpha.12's http-custom-headers) gets those.
import { McpClientError, McpHub, type McpAuth, type ToolResult, type ToolSummary } from '../src/mcp/index.js';
import { conformanceAuth } from './conformance-auth.js';

const SERVER = 'conformance';
const PERSON = { userId: 'conformance-user' };

/** Arguments for the scenario tools that take any; every other tool is called with `{}`. */
const TOOL_ARGS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };

/**
 * json-schema-2020-12-preservation asks the client to send back, through `json_schema_echo`, the inputSchema
 * it holds for `json_schema_2020_12_tool`: what McpHub.listTools returned, so the scenario sees whether the
 * hub kept `$schema`, `$defs` and the 2020-12 keywords.
 */
const SCHEMA_ECHO = { tool: 'json_schema_echo', of: 'json_schema_2020_12_tool' };

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

async function main(url: string): Promise<void> {
  const hub = new McpHub({
    servers: [
      {
        name: SERVER,
        transport: { kind: 'http', url, headers: {} },
        // Longer than any scenario needs, shorter than the CLI's own 30 s client timeout.
        elicitationTimeoutMs: 20_000,
      },
    ],
    sink: { ask: () => Promise.resolve({ action: 'accept', content: {} }) },
    clientInfo: { name: 'elicit-relay-conformance', version: '0.1.0' },
    ...authFor(url),
  });
  try {
    const tools = await hub.listTools(SERVER);
    for (const call of scenarioCalls() ?? tools.map((tool) => callFor(tool, tools))) {
      const result = await callAsTheBotDoes(hub, call.name, call.arguments);
      process.stdout.write(`${call.name}: ${JSON.stringify(result)}\n`);
    }
  } finally {
    await hub.close();
  }
}

function callFor(tool: ToolSummary, tools: ToolSummary[]): ToolCall {
  if (tool.name !== SCHEMA_ECHO.tool) return { name: tool.name, arguments: TOOL_ARGS[tool.name] ?? {} };
  const echoed = tools.find((candidate) => candidate.name === SCHEMA_ECHO.of);
  return { name: tool.name, arguments: { schema: echoed?.inputSchema ?? {} } };
}

/** The calls the scenario asks for in its context (`toolCalls`), if it names any. */
function scenarioCalls(env = process.env): ToolCall[] | undefined {
  const context = JSON.parse(env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { toolCalls?: ToolCall[] };
  return context.toolCalls;
}

/** The auth/* scenarios' sign-in (scripts/conformance-auth.ts); none for the others. */
function authFor(url: string): { auth?: McpAuth } {
  const auth = conformanceAuth(url);
  return auth === undefined ? {} : { auth };
}

/**
 * A failed call is a result the person sees, as in the bot's tool runner (relay/sources/mcp.ts), not a crash:
 * e.g. scenario sep-2322-client-request-state's test_mrtr_no_result_type, which SDK 2.4 rejects
 * (INVALID_RESULT: a 2026 server must send resultType), must not end the run before the other tools.
 */
async function callAsTheBotDoes(
  hub: McpHub,
  tool: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  try {
    return await hub.callTool({ server: SERVER, tool, args, origin: PERSON });
  } catch (error) {
    if (error instanceof McpClientError) return { isError: true, text: error.message };
    throw error;
  }
}

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  process.stderr.write('usage: conformance-client.ts <server url>\n');
  process.exitCode = 2;
} else {
  await main(url);
}
