// `/mcp run <server> <tool> {JSON}`: the arguments typed inline are checked against the tool's inputSchema, by the
// validator its arguments form checks a submission with (blocks/inline-args.ts), before the call starts. Arguments
// that break it are answered privately, naming each failing argument, and the call is not made; arguments that
// pass, and those of a tool whose schema the bot cannot check, go to the server as typed, as before. A number a
// double would round (9007199254740993, 1e400) is refused whatever the schema, named by its JSON Pointer.
import {
  checkInlineArguments,
  codeName,
  commandText,
  escapeMrkdwn,
  inlineArgumentsRefusal,
  withNumberProblems,
  type InexactNumber,
  type InlineArgumentsCheck,
  type Locale,
} from '../../blocks/index.js';
import { SignInError, type ToolSummary } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';
import type { CommandDeps } from './listeners/deps.js';
import { listingFailureText } from './listing-failures.js';

export interface InlineRun {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Numbers of `args` that JSON.parse rounded (command.ts): refused, whatever the schema or the listing says. */
  inexactNumbers?: readonly InexactNumber[];
}

/**
 * The tool as listed, for its inputSchema. `unlisted`: not in the listing, or the listing failed (the server is
 * down): nothing to check against, so the call goes as today (the server answers for a tool it lacks, the run
 * reports a server that cannot be reached). A sign-in the listing waited for and that did not happen is kept:
 * the run would only ask the person to sign in again.
 */
export type ListedTool = ToolSummary | 'unlisted' | SignInError;

/**
 * The tool from the server's listing (cached by the MCP side; for a server each person signs in to, listed in the
 * asking person's session, which prompts them to sign in as the run would).
 */
export async function listedTool(deps: CommandDeps, run: InlineRun, origin: Origin): Promise<ListedTool> {
  try {
    const tools = await deps.tools.listTools(run.server, origin);
    return tools.find((tool) => tool.name === run.tool) ?? 'unlisted';
  } catch (error) {
    return error instanceof SignInError ? error : 'unlisted';
  }
}

/** What to answer instead of running, in `locale`; undefined when the call is to be made. */
export function inlineRefusal(
  listed: ListedTool,
  run: InlineRun,
  ctx: { deps: CommandDeps; locale: Locale },
): string | undefined {
  const { deps, locale } = ctx;
  const t = commandText(locale);
  const [tool, server] = [codeName(run.tool), codeName(run.server)];
  if (listed instanceof SignInError) return t.toolsUnavailable(server, listingFailureText(listed, locale));
  // A server's pattern that runs out of time against an argument is logged, as in the form.
  const check: InlineArgumentsCheck =
    listed === 'unlisted'
      ? { verdict: 'unchecked' }
      : deps.patterns.within({ server: run.server }, () =>
          checkInlineArguments(listed.inputSchema, run.args, locale),
        );
  if (check.verdict === 'malformed') {
    return t.toolSchemaMalformed(tool, server, escapeMrkdwn(check.problem.message));
  }
  const numbers = run.inexactNumbers ?? [];
  const problems = withNumberProblems(numbers, check.verdict === 'invalid' ? check.problems : [], locale);
  if (problems.length === 0) return undefined;
  const formCommand = codeName(`/mcp run ${run.server} ${run.tool}`);
  // Only numbers refused: the schema took the arguments, and the first line says so.
  const numbersOnly = problems.length === numbers.length;
  return inlineArgumentsRefusal({ tool, server, problems, formCommand, numbersOnly, locale });
}
