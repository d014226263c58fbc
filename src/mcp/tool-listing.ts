// A server's tools as the bot lists them. The SDK's own listing first: it walks the pages, fills the client's
// response cache (which a 2025 call's outputSchema check reads) and leaves out the tools whose x-mcp-header it
// refuses. Its ListToolsResultSchema checks every tool, so one malformed tool (a `properties` that is no object,
// a `required` that is no array) fails the whole list and every tool of the server. When it refuses the result,
// the pages are asked for again with a schema that wants only an object with a `tools` array, and each tool is
// parsed on its own by the SDK's ToolSchema: the well-formed ones are listed, the others known by name as
// refused, never called (link.ts). A result that is not even that fails as before.
import {
  SdkError,
  SdkErrorCode,
  specTypeSchemas,
  type Client,
  type Tool,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isInvalidResult, toSummary } from './results.js';
import type { McpLogger, ToolSummary } from './types.js';

/** One listing of a server's tools for the rest of the bot: the tools it may run, and those refused, by name. */
export interface ToolListing {
  tools: ToolSummary[];
  refused: RefusedTool[];
}

/** A tool the server listed whose definition the MCP schema (the SDK's ToolSchema) refuses. */
export interface RefusedTool {
  name: string;
  /** Its first problem: where (keys below the tool, e.g. ['inputSchema', 'required']), in the SDK's words. */
  problem: { path: string[]; message: string };
  /** Its `inputSchema` as listed (not checked), so that a problem in it can be worded as the run form does. */
  inputSchema?: unknown;
}

/** The tools of one listing, as the SDK's types have them: the well-formed ones, and the refused ones by name. */
interface ToolDefinitions {
  tools: Tool[];
  refused: RefusedTool[];
  /** Entries refused that have no name to know them by (logged, never shown). */
  nameless: number;
}

/** Pages walked at most: the SDK's own default `listMaxPages`, so a server whose cursors never end is given up. */
const MAX_PAGES = 64;

/** Only what a listing must be to be read tool by tool; each tool is checked on its own (ToolSchema). */
const LENIENT_PAGE = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** The server's listing; the tools left out are logged, by name (a server's author may need to hear of them). */
export async function listedTools(client: Client, server: string, logger?: McpLogger): Promise<ToolListing> {
  const { tools, refused, nameless } = await listToolDefinitions(client);
  if (refused.length > 0 || nameless > 0) {
    const names = refused.map((tool) => tool.name);
    logger?.warn(
      { server, refused: names, nameless },
      'tools/list: tools left out, their definitions are malformed',
    );
  }
  return { tools: tools.map(toSummary), refused };
}

/** Every page's tools; fails (as the SDK does) when the result is not an object with a `tools` array. */
async function listToolDefinitions(client: Client): Promise<ToolDefinitions> {
  try {
    const { tools } = await client.listTools();
    return { tools, refused: [], nameless: 0 };
  } catch (error) {
    if (!isInvalidResult(error)) throw error;
    return listLeniently(client);
  }
}

async function listLeniently(client: Client): Promise<ToolDefinitions> {
  const listing: ToolDefinitions = { tools: [], refused: [], nameless: 0 };
  let cursor: string | undefined;
  let previous: unknown[] | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const params = cursor === undefined ? {} : { params: { cursor } };
    const result = await client.request({ method: 'tools/list', ...params }, LENIENT_PAGE);
    // A server that answers the same cursor with the same page again has ended (the SDK's own walk stops there).
    if (previous !== undefined && result.nextCursor === cursor && sameItems(result.tools, previous))
      return listing;
    for (const raw of result.tools) sort(raw, listing);
    if (result.nextCursor === undefined) return listing;
    cursor = result.nextCursor;
    previous = result.tools;
  }
  throw new SdkError(
    SdkErrorCode.ListPaginationExceeded,
    `tools/list: exceeded ${MAX_PAGES} pages; server pagination did not terminate`,
  );
}

function sameItems(page: unknown[], previous: unknown[]): boolean {
  return JSON.stringify(page) === JSON.stringify(previous);
}

/** One entry of a page: a tool, a refused tool, or a nameless entry. */
function sort(raw: unknown, listing: ToolDefinitions): void {
  const checked = specTypeSchemas.Tool['~standard'].validate(raw);
  if (checked.issues === undefined) {
    listing.tools.push(checked.value);
    return;
  }
  const entry = new Map<string, unknown>(typeof raw === 'object' && raw !== null ? Object.entries(raw) : []);
  const name = entry.get('name');
  if (typeof name !== 'string') {
    listing.nameless += 1;
    return;
  }
  const [first] = checked.issues;
  const path = (first?.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key));
  const refused: RefusedTool = { name, problem: { path, message: first?.message ?? 'refused' } };
  if (entry.has('inputSchema')) refused.inputSchema = entry.get('inputSchema');
  listing.refused.push(refused);
}
