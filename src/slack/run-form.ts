// `/mcp run <server> <tool>` without arguments: a modal opens at once (a loading view, so the trigger_id
// is used inside its 3 s), then shows the form built from the tool's inputSchema; a tool without
// properties just runs. Submit → the arguments are typed and checked (errors under their field) → the tool
// runs with them and its result comes to the person's DM (or the run's thread, for `route: thread`).
import type { webApi } from '@slack/bolt';
import {
  commandText,
  loadingModal,
  noticeModal,
  runFormModal,
  takesArguments,
  toolSchemaProblem,
  type Locale,
  type ModalView,
} from '../../blocks/index.js';
import type { RefusedTool, ToolSummary } from '../mcp/index.js';
import { RelayError } from '../relay/errors.js';
import type { Origin } from '../relay/types.js';
import type { CommandDeps } from './listeners/deps.js';
import { listingFailureText } from './listing-failures.js';
import { LOCALE_BEFORE_REPLY_MS } from './locales.js';
import { refusedToolText } from './refused-tools.js';
import { retried, retriedWithinTrigger } from './retried.js';

interface OpenInput {
  client: webApi.WebClient;
  triggerId: string;
  origin: Origin;
  server: string;
  tool: string;
}

export async function openRunForm(input: OpenInput, deps: CommandDeps): Promise<void> {
  const { client, origin, server, tool } = input;
  // In the person's language, as their other forms: a cached locale at once, else users.info waited for at most
  // LOCALE_BEFORE_REPLY_MS (500 ms) of the trigger_id's 3 s, then the default (the form below still gets theirs).
  const loadingLocale = await deps.locales.within(origin.userId, origin.teamId, LOCALE_BEFORE_REPLY_MS);
  const loading = loadingModal({ server, tool, locale: loadingLocale });
  const opened = await retriedWithinTrigger(() =>
    client.views.open({ trigger_id: input.triggerId, view: loading }),
  );
  const viewId = opened.view?.id;
  if (!viewId) throw new RelayError('slack_bad_response', 'views.open returned no view id');
  // The person's MCP session opens, and their DM (the result's place) is looked up, while the tool is looked up
  // and they fill the form; the run then takes both.
  deps.results.warm(server, origin);
  const locale = await deps.locales.of(origin.userId, origin.teamId);
  const found = await findTool(deps, origin, server, tool, locale);
  const show = (view: ModalView) => retried(() => client.views.update({ view_id: viewId, view }));
  if (typeof found === 'string') {
    await show(noticeModal(found, locale));
    return;
  }
  if (takesArguments(found.inputSchema)) {
    const channel = origin.channelId ? { channel: origin.channelId } : {};
    const form = { server, tool, inputSchema: found.inputSchema, locale, ...channel, ...described(found) };
    await show(runFormModal(form));
    return;
  }
  const t = commandText(locale);
  const started = (await deps.results.inThread(server, origin)) ? t.runStartedInThread : t.runStarted;
  await show(noticeModal(started(`\`${tool}\``, `\`${server}\``), locale));
  await deps.results.run({ server, tool, args: {}, origin }, { warmed: true });
}

/** The tool, or what to tell the person when it cannot be had or cannot run (its inputSchema is malformed). */
export async function findTool(
  deps: CommandDeps,
  origin: Origin,
  server: string,
  tool: string,
  locale: Locale,
): Promise<ToolSummary | string> {
  const t = commandText(locale);
  const names = [`\`${tool}\``, `\`${server}\``] as const;
  let found: ToolSummary | undefined;
  let refused: RefusedTool | undefined;
  try {
    const tools = await deps.tools.listTools(server, origin);
    found = tools.find((candidate) => candidate.name === tool);
    // The same listing, cached: a tool not listed may be one the MCP schema refused.
    if (found === undefined)
      refused = (await deps.tools.refusedTools(server, origin)).find((candidate) => candidate.name === tool);
  } catch (error) {
    return t.toolsUnavailable(names[1], listingFailureText(error, locale));
  }
  if (refused !== undefined) return refusedToolText(refused, { server, tool }, locale);
  return found === undefined ? t.noSuchTool(...names) : wellFormed(found, { server, tool }, locale);
}

/**
 * The tool, or what to tell the person when its inputSchema is malformed (what is wrong and under which
 * property): its arguments cannot be checked, so nothing is sent to the server (nor a run without arguments).
 */
export function wellFormed<T extends { inputSchema?: unknown }>(
  found: T,
  target: { server: string; tool: string },
  locale: Locale,
): T | string {
  const problem = toolSchemaProblem(found.inputSchema);
  if (problem === undefined) return found;
  const names = [`\`${target.tool}\``, `\`${target.server}\``] as const;
  return commandText(locale).toolSchemaMalformed(...names, problem.message);
}

function described(tool: ToolSummary): { description?: string } {
  return tool.description ? { description: tool.description } : {};
}

/**
 * Who clicked or submitted, and where: the person a rerun or a form's tool call runs for, and the
 * conversation and thread of the clicked message (a rerun stays in its run's thread).
 */
export function originOfInteraction(body: {
  user: { id: string; team_id?: string };
  team?: { id: string } | null;
  api_app_id?: string;
  channel?: { id: string };
  message?: Record<string, unknown>;
  is_enterprise_install?: boolean;
  enterprise?: { id: string } | null;
}): Origin {
  const thread = body.message?.thread_ts;
  const threadTs = body.channel?.id && typeof thread === 'string' ? thread : undefined;
  // An org-wide install's payload may carry no team (Bolt reads the person's then, as here).
  const teamId = body.team?.id ?? body.user.team_id;
  const enterpriseId = body.is_enterprise_install === true ? body.enterprise?.id : undefined;
  return {
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    ...(enterpriseId ? { enterpriseId } : {}),
    ...(body.api_app_id ? { appId: body.api_app_id } : {}),
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(threadTs ? { threadTs } : {}),
  };
}
