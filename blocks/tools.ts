// `/mcp tools <server>`: a server's tools as one ephemeral message, inside Slack's message limits
// (50 blocks, 3000 characters a section). Tools beyond what fits are counted in a closing note.
import type { KnownBlock } from '@slack/types';
import type { SlackMessage } from './card.js';
import { serverName } from './card.js';
import type { Locale } from './i18n.js';
import { commandText } from './i18n-commands.js';
import { CONTEXT_TEXT_MAX, SECTION_TEXT_MAX } from './slack-limits.js';
import { codeName, escapeMrkdwn, escapeMrkdwnWithin, mrkdwn, section, truncate } from './text.js';

/** A tool as listed (the MCP side's ToolSummary, without what the list does not show). */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
}

/** Tool sections in one message: with the headline and the closing note, 47 of Slack's 50 blocks. */
export const TOOLS_SHOWN_MAX = 45;
/**
 * Characters of a tool's description shown, before escaping; escaped (`&` is 5 characters, `<` `>` 4) it is cut
 * further to what the section's 3000 leave after the title and name.
 */
const DESCRIPTION_MAX = 600;
const NAME_MAX = 200;
/** Names of the tools left out shown (the rest counted), as many of them as a context's text holds. */
const REFUSED_SHOWN_MAX = 10;

/** Whether the tool's inputSchema declares at least one property. */
export function takesArguments(inputSchema: unknown): boolean {
  if (typeof inputSchema !== 'object' || inputSchema === null) return false;
  const properties = (inputSchema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
}

export function toolsMessage(input: {
  server: string;
  tools: ListedTool[];
  /** The names of the tools listed that the MCP schema refused, left out (a closing note names them). */
  refused?: readonly string[];
  locale?: Locale;
}): SlackMessage {
  const t = commandText(input.locale);
  const server = serverName(input.server);
  const note = refusedNote(input.refused ?? [], input.locale);
  if (input.tools.length === 0) {
    const blocks: KnownBlock[] = [{ type: 'section', text: mrkdwn(t.noTools(`*${server}*`)) }, ...note];
    return { text: t.noTools(server), blocks };
  }
  const shown = input.tools.slice(0, TOOLS_SHOWN_MAX);
  const blocks: KnownBlock[] = [
    { type: 'section', text: mrkdwn(`*${t.toolsHeader(server)}*`) },
    ...shown.map((tool) => section(toolLine(tool, input.locale))),
  ];
  const hidden = input.tools.length - shown.length;
  if (hidden > 0) blocks.push({ type: 'context', elements: [mrkdwn(t.moreTools(hidden))] });
  blocks.push(...note);
  return { text: t.toolsHeader(server), blocks };
}

/** The closing note naming the tools left out; none when every listed tool is shown. */
function refusedNote(refused: readonly string[], locale?: Locale): KnownBlock[] {
  if (refused.length === 0) return [];
  const note = (names: readonly string[]): string => {
    const rest = refused.length - names.length;
    return commandText(locale).refusedTools(rest > 0 ? `${names.join(', ')} (+${rest})` : names.join(', '));
  };
  // Ten names of up to CODE_NAME_MAX escaped may pass the context's limit: names go in while they fit.
  const names: string[] = [];
  for (const name of refused.slice(0, REFUSED_SHOWN_MAX)) {
    const shown = codeName(name);
    if (note([...names, shown]).length > CONTEXT_TEXT_MAX) break;
    names.push(shown);
  }
  return [{ type: 'context', elements: [mrkdwn(note(names))] }];
}

function toolLine(tool: ListedTool, locale?: Locale): string {
  const t = commandText(locale);
  const name = codeName(tool.name);
  const title = tool.title?.trim() ? `*${escapeMrkdwn(truncate(tool.title.trim(), NAME_MAX))}* ` : '';
  const args = takesArguments(tool.inputSchema) ? t.takesArguments : t.noArguments;
  const head = `${title}${name} _(${args})_`;
  // The title (at most NAME_MAX × 5 escaped) and the name (CODE_NAME_MAX) leave the description over 1700.
  const room = SECTION_TEXT_MAX - head.length - 1;
  const description = tool.description?.trim()
    ? `\n${escapeMrkdwnWithin(truncate(tool.description.trim(), DESCRIPTION_MAX), room)}`
    : '';
  return `${head}${description}`;
}
