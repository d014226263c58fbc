// The Cancel button of a person's run's "working…" message. The click may reach any replica: it marks the run
// cancelled in Redis (run-cancels.ts), and the replica running it aborts the call within a second and says so in
// the message. Only the person whose run it is may cancel it; anyone else, a click on a run that ended, a
// second click and a click Redis could not record are each answered privately.
import { runCancelTargetOf } from '../../../../blocks/index.js';
import type { CommandDeps } from '../deps.js';
import type { ButtonArgs } from './question-buttons.js';
import { isOwnersClick, notePrivately } from './run-owner.js';

export async function cancelRun(
  { ack, body, action, respond }: ButtonArgs,
  deps: CommandDeps,
): Promise<void> {
  await ack();
  const target = runCancelTargetOf(action.value);
  if (target === undefined) return;
  const click = { body, respond };
  if (!(await isOwnersClick(click, deps, target.owner, (t) => t.cancelNotYours))) return;
  const mark = await deps.results.cancelRun(target.run);
  // Marked: the replica running it updates the message once it has stopped the call.
  if (mark === 'marked') return;
  const said = { already: 'cancelTaken', none: 'cancelEnded', unrecorded: 'cancelUnrecorded' } as const;
  await notePrivately(click, deps, (t) => t[said[mark]]);
}
