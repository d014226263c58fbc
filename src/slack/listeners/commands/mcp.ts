// `/mcp`: acks at once, then answers privately through the response_url (help, servers, tools) or runs the
// tool; its elicitations reach the person who ran it, and so do its progress and result (tool-results.ts).
// `run` without arguments opens the arguments form (run-form.ts).
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs, SlashCommand } from '@slack/bolt';
import {
  codeName,
  commandText,
  escapeMrkdwn,
  signInText,
  toolsMessage,
  type Locale,
} from '../../../../blocks/index.js';
import type { RefusedTool, ToolSummary } from '../../../mcp/index.js';
import type { Origin } from '../../../relay/types.js';
import { inlineRefusal, listedTool, type InlineRun } from '../../inline-args.js';
import { listingFailureText } from '../../listing-failures.js';
import { parseMcpCommand, unescapeCommandText, type CommandProblem, type McpCommand } from '../../command.js';
import { retriedRespond } from '../../retried.js';
import { openRunForm } from '../../run-form.js';
import { serversText } from '../../server-lines.js';
import type { CommandDeps } from '../deps.js';
import { connectReply } from './connect.js';

type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

type Reply = (text: string, blocks?: object[]) => Promise<unknown>;

export async function mcpCommand(
  { ack, command, respond, client }: CommandArgs,
  deps: CommandDeps,
): Promise<void> {
  // Acked before anything that waits (Redis, Slack, an MCP server): Slack allows 3 s, and under load the event
  // loop may run other commands' work first. Every answer then goes privately through the response_url.
  await ack();
  // What follows the ack waits while other requests still wait for theirs (a burst of commands is read and
  // acked before the runs it starts take the event loop), at most ACK_GATE_MAX_WAIT_MS.
  await deps.postAck.turn();
  // Slack sends the text with & < > escaped; the tool gets what the person typed.
  const parsed = parseMcpCommand(unescapeCommandText(command.text));
  const origin = originOf(command);
  if (parsed.kind === 'run' && parsed.args === undefined && known(deps, parsed.server)) {
    // The trigger_id expires 3 s after the command: the form opens before anything slower.
    const target = { server: parsed.server, tool: parsed.tool };
    await openRunForm({ client, triggerId: command.trigger_id, origin, ...target }, deps);
    return;
  }
  const reply: Reply = (text, blocks) =>
    retriedRespond(respond, { response_type: 'ephemeral', text, ...(blocks ? { blocks: blocks } : {}) });
  if (parsed.kind === 'run' && known(deps, parsed.server)) {
    await runTool({ ...parsed, args: parsed.args ?? {} }, { command, origin, reply }, deps);
    return;
  }
  const locale = await deps.locales.of(command.user_id, command.team_id);
  if (parsed.kind === 'tools' && known(deps, parsed.server)) {
    await listTools(parsed.server, { deps, origin, locale, reply });
    return;
  }
  if ((parsed.kind === 'connect' || parsed.kind === 'disconnect') && known(deps, parsed.server)) {
    const person = { teamId: command.team_id, userId: command.user_id };
    await reply(await connectReply({ ...parsed, person, locale }, deps.signIn));
    return;
  }
  await reply(immediateReply(parsed, deps, locale));
}

/**
 * `/mcp run` with arguments: claimed and checked against the tool's inputSchema, announced ("Running…", or why
 * not), then run if this is its first delivery and its arguments passed.
 */
async function runTool(
  run: InlineRun,
  ctx: { command: SlashCommand; origin: Origin; reply: Reply },
  deps: CommandDeps,
): Promise<void> {
  const { command, origin, reply } = ctx;
  // The person's MCP session opens, and their DM is looked up, while the run is claimed and announced.
  deps.results.warm(run.server, origin);
  // Slack may deliver one command more than once, and a signed one can be replayed: run each trigger_id once.
  // The tool's listing (for its inputSchema) is read meanwhile: arguments it refuses are answered, not sent.
  const [claim, locale, listed] = await Promise.all([
    claimRun(deps, command.trigger_id),
    deps.locales.of(command.user_id, command.team_id),
    listedTool(deps, run, origin),
  ]);
  // Said instead of "Running…", whichever delivery this is: a refused command never runs, so a replay is refused too.
  const refusal = inlineRefusal(listed, run, { deps, locale });
  if (refusal !== undefined) {
    await reply(refusal);
    return;
  }
  try {
    await reply(runReply(claim, run, locale));
  } finally {
    // A "Running…" note Slack refused does not stop the run it announces.
    if (claim === 'first') await deps.results.run({ ...run, origin }, { warmed: true });
  }
}

type RunClaim = 'first' | 'replay' | 'unrecorded';

/**
 * Claims the run across replicas; 'unrecorded' when Redis fails. Not bounded in time: the ack has gone, and a
 * claim given up while Redis still writes it would leave a retry of the command "already running", never run.
 */
function claimRun(deps: CommandDeps, triggerId: string): Promise<RunClaim> {
  return deps.results.claimCommand(triggerId).then(
    (first): RunClaim => (first ? 'first' : 'replay'),
    (): RunClaim => 'unrecorded',
  );
}

function runReply(claim: RunClaim, run: { tool: string; server: string }, locale: Locale): string {
  const t = commandText(locale);
  const text = { first: t.running, replay: t.alreadyRunning, unrecorded: t.notStarted }[claim];
  return text(...codeNames(run));
}

/** The answer to help, servers, a usage problem, an unknown server, or "Running…". */
function immediateReply(parsed: McpCommand, deps: CommandDeps, locale: Locale): string {
  const t = commandText(locale);
  const usage = t.usage.join('\n');
  switch (parsed.kind) {
    case 'help':
      return usage;
    case 'invalid':
      return `${problemText(parsed.problem, locale, parsed.verb)}\n\n${usage}`;
    case 'servers':
      return serversText(deps.tools.status(), locale);
    case 'tools':
    case 'run':
    case 'connect':
    case 'disconnect':
      if (!known(deps, parsed.server)) return t.noSuchServer(escapeMrkdwn(parsed.server));
      return parsed.kind === 'run' ? t.running(...codeNames(parsed)) : usage;
  }
}

const codeNames = (call: { tool: string; server: string }): [string, string] => [
  codeName(call.tool),
  codeName(call.server),
];

async function listTools(
  server: string,
  ctx: { deps: CommandDeps; origin: Origin; locale: Locale; reply: Reply },
): Promise<unknown> {
  let tools: ToolSummary[];
  let refused: RefusedTool[];
  try {
    // One listing, cached: the tools that may run, and those the MCP schema refused (named in a closing note).
    tools = await ctx.deps.tools.listTools(server, ctx.origin);
    refused = await ctx.deps.tools.refusedTools(server, ctx.origin);
  } catch (error) {
    const t = commandText(ctx.locale);
    return ctx.reply(t.toolsUnavailable(codeName(server), listingFailureText(error, ctx.locale)));
  }
  const names = refused.map((tool) => tool.name);
  const message = toolsMessage({ server, tools, refused: names, locale: ctx.locale });
  return ctx.reply(message.text, message.blocks);
}

const known = (deps: CommandDeps, server: string): boolean => deps.tools.serverNames().includes(server);

/** A command through an org-wide install (its form says `is_enterprise_install: 'true'`) keeps the org too. */
function originOf(command: SlashCommand): Origin {
  const viaOrg = command.is_enterprise_install === 'true' && command.enterprise_id;
  return {
    userId: command.user_id,
    teamId: command.team_id,
    ...(viaOrg ? { enterpriseId: command.enterprise_id } : {}),
    appId: command.api_app_id,
    channelId: command.channel_id,
  };
}

function problemText(problem: CommandProblem, locale: Locale, verb = ''): string {
  const t = commandText(locale);
  const texts: Record<CommandProblem, string> = {
    unknown_subcommand: t.unknownSubcommand(escapeMrkdwn(verb)),
    run_needs_tool: t.runNeedsTool,
    tools_needs_server: t.toolsNeedsServer,
    connect_needs_server: signInText(locale).connectNeedsServer,
    bad_json: t.badJson,
    not_object: t.notObject,
  };
  return texts[problem];
}
