// `/mcp run`'s arguments form submitted: the arguments are typed and checked (errors under their field), then
// the tool runs with them and its result comes to the person's DM (or the run's thread, for `route: thread`).
// Slack may deliver one submission twice, and a signed one can be replayed within its 5 minutes: the run is
// claimed by the view id across replicas first, so only the first delivery runs the tool.
import { commandText, noticeModal, readRunArguments, runTargetOf } from '../../../../blocks/index.js';
import { findTool, originOfInteraction, wellFormed } from '../../run-form.js';
import { LOCALE_BEFORE_REPLY_MS } from '../../locales.js';
import type { CommandDeps } from '../deps.js';
import type { SubmitArgs } from './form.js';

export async function submitRunForm({ ack, body, view }: SubmitArgs, deps: CommandDeps): Promise<void> {
  const target = runTargetOf(view);
  if (!target) return ack();
  // A view submission names no conversation: the form kept the one where `/mcp run` ran.
  const origin = { ...originOfInteraction(body), ...(target.channel ? { channelId: target.channel } : {}) };
  // Its ack is the reply (3 s): the language is waited for only briefly.
  const locale = await deps.locales.within(origin.userId, origin.teamId, LOCALE_BEFORE_REPLY_MS);
  const { server, tool } = target;
  // The form's own schema is checked again too: a form opened by a replica before this check was deployed.
  const found =
    target.inputSchema === undefined
      ? await findTool(deps, origin, server, tool, locale)
      : wellFormed(target, target, locale);
  if (typeof found === 'string') return ack({ response_action: 'update', view: noticeModal(found, locale) });
  const read = deps.patterns.within({ server }, () =>
    readRunArguments(found.inputSchema, view.state.values, locale),
  );
  if (!read.ok) return ack({ response_action: 'errors', errors: read.errors });
  // Claimed only once the arguments are good: a submission refused above leaves the form open to be sent again.
  const claim = await claimFormRun(deps, view.id);
  if (claim === 'unrecorded') {
    // Said in the form itself: the person still has it open and can send it again.
    const notStarted = commandText(locale).notStarted(`\`${tool}\``, `\`${server}\``);
    return ack({ response_action: 'update', view: noticeModal(notStarted, locale) });
  }
  // A delivery that lost the claim only closes the form: the first one runs the tool.
  await ack();
  if (claim === 'first') await deps.results.run({ server, tool, args: read.args, origin });
}

/** 'unrecorded' when Redis fails: nothing runs, since a replay could not be told apart. */
function claimFormRun(deps: CommandDeps, viewId: string): Promise<'first' | 'replay' | 'unrecorded'> {
  return deps.results.claimFormRun(viewId).then(
    (first) => (first ? 'first' : 'replay'),
    () => 'unrecorded',
  );
}
