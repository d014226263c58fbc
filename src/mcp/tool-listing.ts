// A server's tools as the bot lists them. The SDK's own listing first: it walks the pages and fills the client's
// response cache. It checks every tool by the era's schema, so one malformed tool (on 2025 revisions a
// `properties` that is no object, a `required` that is no array; on any, a tool without a `name`, an
// `inputSchema.type` that is not "object") fails the whole list and every tool of the server. When it refuses the
// result, the pages are asked for again raw (raw-results.ts: on 2026-07-28 the SDK's codec refuses the page before
// any lenient schema could read it) and judged by the same era codec, the page without its tools first (so a
// result that is not even a page fails as before), then each tool on its own: the well-formed ones are listed,
// the others known as refused, by name (a nameless one by its position, `#3`), never called (link.ts); so is a
// name listed twice, once malformed, in either order. A listing that asks for input (2026-07-28 allows it of
// tools/call, prompts/get and resources/read only) breaks the schema.
// On a 2026-07-28 session over HTTP the SDK's listing also drops, saying nothing, each tool whose `x-mcp-header`
// declarations it refuses (their arguments cannot be mirrored into `Mcp-Param-*` headers): there the bot walks
// the pages itself with the SDK's own request (each page read by the era's codec as the SDK's listing reads it,
// the same pages asked for) and refuses those tools by name, under the declaring property, by the SDK's rules
// (header-declarations.ts); the lenient listing refuses them alike. The response cache that walk leaves unfilled
// is read by callTool only for a call given no definition, and every 2026 call is given one (rounds.ts).
// On either era a tool whose outputSchema the validator that checks its results (output-check.ts) cannot compile
// is refused too, under `outputSchema`: its results could not be checked, so it is never run.
import { SdkError, SdkErrorCode, specTypeSchemas, type Tool } from '@modelcontextprotocol/client';
import { isRecord } from './elicitation.js';
import { headerProblem, mirrorsParamHeaders } from './header-declarations.js';
import type { Schedule } from '../clock.js';
import type { RawResultClient } from './raw-results.js';
import type { OutputChecks } from './output-check.js';
import { isInvalidResult, toSummary } from './results.js';
import type { McpLogger, ToolSummary } from './types.js';

/** One listing of a server's tools for the rest of the bot: the tools it may run, and those refused, by name. */
export interface ToolListing {
  tools: ToolSummary[];
  refused: RefusedTool[];
  /**
   * Each listed tool's definition, by name: a call's result's structuredContent is checked against its
   * outputSchema on whichever session runs the call (output-check.ts), and a 2025 call hands it to the SDK
   * (callTool's `toolDefinition`; the SDK's own cache is the listing connection's only, a lenient listing
   * fills none).
   */
  definitions?: ReadonlyMap<string, Tool>;
}

/** A tool the server listed whose definition the MCP schema (the era's, as the SDK reads it) refuses. */
export interface RefusedTool {
  /** Its name; an entry without one is known by its position in the listing, 1-based across pages: `#3`. */
  name: string;
  /** Its first problem: where (keys below the tool, e.g. ['inputSchema', 'required']), in the SDK's words. */
  problem: { path: string[]; message: string };
  /** Its `inputSchema` as listed (not checked), so that a problem in it can be worded as the run form does. */
  inputSchema?: unknown;
}

/** The tools of one listing, as the SDK's types have them: the well-formed ones, and the refused ones. */
interface ToolDefinitions {
  tools: Tool[];
  refused: RefusedTool[];
}

/** The negotiated era's wire codec (the SDK's), which judges a raw page and each of its tools. */
type EraCodec = ReturnType<RawResultClient['eraCodec']>;

/** A page's tools and the cursor to the next one. */
interface PageOf<T> {
  tools: T[];
  nextCursor?: string | undefined;
}

/** A page as the era's codec read it without its tools (`rest`), and its tools, unread. */
interface Page extends PageOf<unknown> {
  rest: Record<string, unknown>;
}

/** Pages walked at most: the SDK's own default `listMaxPages`, so a server whose cursors never end is given up. */
const MAX_PAGES = 64;

/**
 * The server's listing; the tools left out are logged, by name (a server's author may need to hear of them).
 * `schedule`: the hub's clock, which bounds each page read raw; `outputs`: the server's compiled outputSchemas.
 */
export async function listedTools(
  client: RawResultClient,
  server: string,
  schedule: Schedule,
  outputs: OutputChecks,
  logger?: McpLogger,
): Promise<ToolListing> {
  const { tools: listed, refused } = withOutputSchemas(await listToolDefinitions(client, schedule), outputs);
  const names = new Set(refused.map((tool) => tool.name));
  if (names.size > 0)
    logger?.warn(
      { server, refused: [...names] },
      'tools/list: tools left out, their definitions are malformed',
    );
  // A name also listed with a malformed definition is refused whichever came first: the bot cannot tell which
  // definition the server runs under that name, so it cannot know what the tool takes.
  const tools = listed.filter((tool) => !names.has(tool.name));
  const definitions = new Map<string, Tool>();
  // The first of a name, as the run and the run form find it among the listed tools.
  for (const tool of tools) if (!definitions.has(tool.name)) definitions.set(tool.name, tool);
  return { tools: tools.map(toSummary), refused, definitions };
}

/** The tools whose outputSchema `outputs` cannot compile, moved after the refused ones (path `outputSchema`). */
function withOutputSchemas(listing: ToolDefinitions, outputs: OutputChecks): ToolDefinitions {
  const tools: Tool[] = [];
  const refused = [...listing.refused];
  for (const tool of listing.tools) {
    const problem = outputs.problemOf(tool);
    if (problem === undefined) tools.push(tool);
    else
      refused.push({
        name: tool.name,
        problem: { path: ['outputSchema'], message: problem },
        inputSchema: tool.inputSchema,
      });
  }
  return { tools, refused };
}

/** Every page's tools; fails (as the SDK does) when a page is not a listing, its tools aside. */
async function listToolDefinitions(client: RawResultClient, schedule: Schedule): Promise<ToolDefinitions> {
  try {
    if (mirrorsParamHeaders(client)) return await listMirroring(client);
    const { tools } = await client.listTools();
    return { tools, refused: [] };
  } catch (error) {
    // A result that is not complete (2026-07-28: only tools/call, prompts/get and resources/read may ask for
    // input) breaks the MCP schema for a listing, as readPage says of a raw page; the SDK words it as a refusal
    // of its own settings (auto-fulfilment not enabled), which would tell the person nothing.
    if (error instanceof SdkError && error.code === SdkErrorCode.UnsupportedResultType)
      throw invalidPage('it is not a complete result');
    if (!isInvalidResult(error)) throw error;
    return listLeniently(client, schedule);
  }
}

/**
 * The SDK's listing as Client.listTools walks it (none when the server declares no tools), each tool judged by
 * its `x-mcp-header` declarations where the SDK's listing would have dropped it.
 */
async function listMirroring(client: RawResultClient): Promise<ToolDefinitions> {
  const listing: ToolDefinitions = { tools: [], refused: [] };
  if (client.getServerCapabilities()?.tools === undefined) return listing;
  await walkPages(
    (cursor) =>
      client.request(
        cursor === undefined ? { method: 'tools/list' } : { method: 'tools/list', params: { cursor } },
      ),
    (page) => page.tools.forEach((tool) => admit(tool, listing, true)),
  );
  return listing;
}

async function listLeniently(client: RawResultClient, schedule: Schedule): Promise<ToolDefinitions> {
  const codec = client.eraCodec();
  const mirrors = mirrorsParamHeaders(client);
  const listing: ToolDefinitions = { tools: [], refused: [] };
  let position = 0;
  await walkPages(
    async (cursor) =>
      readPage(
        codec,
        await client.requestRaw('tools/list', cursor === undefined ? {} : { cursor }, { schedule }),
      ),
    (page) => {
      for (const entry of page.tools) sort(entry, (position += 1), page, codec, { listing, mirrors });
    },
  );
  return listing;
}

/**
 * Gives each page to `take`, from the first, as the SDK's own walk does: a server that answers the same cursor
 * with the same page again has ended; one whose cursors never end is given up after MAX_PAGES.
 */
async function walkPages<P extends PageOf<unknown>>(
  read: (cursor: string | undefined) => Promise<P>,
  take: (page: P) => void,
): Promise<void> {
  let cursor: string | undefined;
  let previous: unknown[] | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const next = await read(cursor);
    if (previous !== undefined && next.nextCursor === cursor && sameItems(next.tools, previous)) return;
    take(next);
    if (next.nextCursor === undefined) return;
    cursor = next.nextCursor;
    previous = next.tools;
  }
  throw new SdkError(
    SdkErrorCode.ListPaginationExceeded,
    `tools/list: exceeded ${MAX_PAGES} pages; server pagination did not terminate`,
  );
}

/** A tool the era's codec took: listed, unless `mirrors` and its `x-mcp-header` declarations are invalid. */
function admit(tool: Tool, listing: ToolDefinitions, mirrors: boolean): void {
  const problem = mirrors ? headerProblem(tool.inputSchema) : undefined;
  if (problem === undefined) listing.tools.push(tool);
  else listing.refused.push({ name: tool.name, problem, inputSchema: tool.inputSchema });
}

/**
 * `raw` read by the era's codec as the SDK reads a tools/list result (on 2026-07-28 its `resultType`, `ttlMs`
 * and `cacheScope` too), its tools taken out; throws SdkError InvalidResult where the SDK would have.
 */
function readPage(codec: EraCodec, raw: unknown): Page {
  const listed: unknown = isRecord(raw) ? raw['tools'] : undefined;
  if (!isRecord(raw) || !Array.isArray(listed)) throw invalidPage('its tools are not a list');
  const tools: unknown[] = listed;
  const decoded = codec.decodeResult('tools/list', { ...raw, tools: [] });
  if (decoded.kind === 'invalid') throw decoded.error;
  if (decoded.kind !== 'complete') throw invalidPage('it asks for input');
  const checked = codec.validateResult('tools/list', decoded.result);
  if (!checked.ok) throw invalidPage(checked.reason === 'invalid' ? checked.message : checked.reason);
  return { rest: decoded.result, tools, nextCursor: checked.value.nextCursor };
}

function invalidPage(why: string): SdkError {
  return new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/list: ${why}`);
}

function sameItems(page: unknown[], previous: unknown[]): boolean {
  return JSON.stringify(page) === JSON.stringify(previous);
}

/**
 * One entry of a page, the `position`-th of the listing: a tool, or a refused one. `mirrors`: the SDK's listing
 * on this session judges `x-mcp-header` declarations.
 */
function sort(
  entry: unknown,
  position: number,
  page: Page,
  codec: EraCodec,
  { listing, mirrors }: { listing: ToolDefinitions; mirrors: boolean },
): void {
  // The era's own rules for a tool, as the SDK applies them to a listing of this one tool.
  const checked = codec.validateResult('tools/list', { ...page.rest, tools: [entry] });
  const tool = checked.ok ? checked.value.tools[0] : undefined;
  if (tool !== undefined) {
    admit(tool, listing, mirrors);
    return;
  }
  const fields = new Map<string, unknown>(isRecord(entry) ? Object.entries(entry) : []);
  const name = fields.get('name');
  const refused: RefusedTool = {
    name: typeof name === 'string' ? name : `#${position}`,
    problem: problemOf(entry),
  };
  if (fields.has('inputSchema')) refused.inputSchema = fields.get('inputSchema');
  listing.refused.push(refused);
}

/**
 * Where a refused tool breaks the MCP schema: the first issue of the SDK's ToolSchema, which names its keys (the
 * era's codec only says that it failed). It checks what either era checks of a tool but a 2026 tool's
 * `inputSchema.$schema` and a 2025 tool's `outputSchema` type, told without a place; on 2026-07-28 it also
 * checks a few keys that era does not (`properties`, `required`, `execution`), so a tool refused for a later
 * key may be told of one of those.
 */
function problemOf(entry: unknown): RefusedTool['problem'] {
  const first = specTypeSchemas.Tool['~standard'].validate(entry).issues?.[0];
  if (first === undefined) return { path: [], message: 'does not follow the MCP schema' };
  const path = (first.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key));
  return { path, message: first.message };
}
