// `/mcp run`'s arguments form submitted: the arguments are typed and checked (errors under their field), then
// the tool runs with them and its result comes to the person's DM (or the run's thread, for `route: thread`).
import { noticeModal, readRunArguments, runTargetOf } from '../../../../blocks/index.js';
import { findTool, originOfInteraction } from '../../run-form.js';
import type { CommandDeps } from '../deps.js';
import type { SubmitArgs } from './form.js';

export async function submitRunForm({ ack, body, view }: SubmitArgs, deps: CommandDeps): Promise<void> {
  const target = runTargetOf(view);
  if (!target) return ack();
  // A view submission names no conversation: the form kept the one where `/mcp run` ran.
  const origin = { ...originOfInteraction(body), ...(target.channel ? { channelId: target.channel } : {}) };
  const locale = await deps.locales.of(origin.userId, origin.teamId);
  const { server, tool } = target;
  const found =
    target.inputSchema === undefined ? await findTool(deps, origin, server, tool, locale) : target;
  if (typeof found === 'string') return ack({ response_action: 'update', view: noticeModal(found, locale) });
  const read = readRunArguments(found.inputSchema, view.state.values, locale);
  if (!read.ok) return ack({ response_action: 'errors', errors: read.errors });
  await ack();
  await deps.results.run({ server, tool, args: read.args, origin });
}
