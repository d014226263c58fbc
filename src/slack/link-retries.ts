// A -32042 answer of a run: its links posted with a Retry button (none for an automation's call), and the call
// retried by itself once the server says every link is done, unless the person's click claimed the retry first.
import { retryingMessage, urlRequiredMessage } from '../../blocks/index.js';
import type { ToolResult, UrlRequired } from '../mcp/index.js';
import type { Logger } from '../logger.js';
import type { Messages } from './messages.js';
import { messagePlaceOf, type RunPlace } from './progress-message.js';
import type { ToolRun } from './tool-results.js';
import type { UrlCompletions } from './url-completions.js';

export interface LinkRetryDeps {
  messages: Messages;
  logger: Logger;
  completions: UrlCompletions;
  /** True for the first claim of the retry of the links message at `channel`/`ts`, across replicas. */
  claimRetry: (channel: string, ts: string) => Promise<boolean>;
  /** Runs the call again in the same place (ToolResults.run). */
  rerun: (call: ToolRun) => Promise<ToolResult>;
}

/**
 * Posts a -32042 answer's links and watches them; `final` resolves with the retry's result once the server
 * says every link is done, or with this answer when the watch lapses or the retry was claimed by a click.
 * An API call's message has no Retry button: only the automatic retry reaches the automation.
 */
export async function askForLinks(
  deps: LinkRetryDeps,
  place: RunPlace,
  args: Record<string, unknown>,
  result: ToolResult,
  required: UrlRequired[],
): Promise<{ final: Promise<ToolResult> }> {
  const common = { server: place.server, tool: place.tool, locale: place.locale };
  const links = required.map(({ url, message }) => ({ url, message }));
  const retriesItself = place.origin.callId !== undefined;
  // Watched from before the post: the server may say a link is done while the post waits out a 429.
  const posted = deps.messages.post(
    messagePlaceOf(place),
    urlRequiredMessage({ ...common, links, args, owner: place.origin.userId, retriesItself }),
  );
  const call = { server: place.server, tool: place.tool, args, origin: place.origin };
  const ids = required.map((link) => link.elicitationId);
  const final = retryOnceAllDone(deps, place, call, ids, posted, result);
  // A person's run does not wait for it; the failure is logged in retryOnceAllDone.
  final.catch(() => undefined);
  await posted;
  return { final };
}

/**
 * Resolves with the retry's result once every link of `ids` is done (the links message `posted` then loses
 * its buttons), or with `result` when the watch lapses, a click claimed the retry, or the message never
 * got posted (the run failed then: there is nothing to retry from).
 */
async function retryOnceAllDone(
  deps: LinkRetryDeps,
  place: RunPlace,
  call: ToolRun,
  ids: string[],
  posted: Promise<string>,
  result: ToolResult,
): Promise<ToolResult> {
  // Watched at once (before the first await), while the links message is still on its way to Slack.
  const allDone = await new Promise<boolean>((resolve) =>
    deps.completions.watch(
      place.server,
      ids,
      () => resolve(true),
      () => resolve(false),
    ),
  );
  const ts = allDone ? await posted.catch(() => undefined) : undefined;
  if (ts === undefined) return result;
  try {
    return (await retryOnceDone(deps, place, call, ts)) ?? result;
  } catch (error) {
    deps.logger.warn({ err: error, server: place.server, tool: place.tool }, 'automatic retry failed');
    throw error;
  }
}

/**
 * Every link of the -32042 answer at `ts` is done: unless the person's click already claimed it, the
 * message loses its buttons and says so, and the call runs again in the same place.
 */
async function retryOnceDone(
  deps: LinkRetryDeps,
  place: RunPlace,
  call: ToolRun,
  ts: string,
): Promise<ToolResult | undefined> {
  if (!(await deps.claimRetry(place.channel, ts))) return undefined;
  const message = retryingMessage({ ...call, locale: place.locale, linksDone: true });
  await deps.messages.update({ ...messagePlaceOf(place), ts }, message);
  return deps.rerun(call);
}
