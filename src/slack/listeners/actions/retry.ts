// A -32042 answer's buttons: Retry reruns the call; a link button only needs its click acked. A call whose
// 2026 round expired has a Start again button: the same action, the same rerun.
import type { AllMiddlewareArgs, SlackActionMiddlewareArgs } from '@slack/bolt';
import { retryingMessage, retryTargetOf } from '../../../../blocks/index.js';
import { retriedRespond } from '../../retried.js';
import { originOfInteraction } from '../../run-form.js';
import type { CommandDeps } from '../deps.js';
import type { ButtonArgs } from './question-buttons.js';
import { isOwnersClick, notePrivately } from './run-owner.js';

/**
 * Reruns the call, for the person whose run it was when they click (once they opened the links, or to start
 * an expired call again); anyone else's click is answered privately. The automatic retry (once the server says every link is done) may have claimed it first, on any
 * replica; the claim also makes a double click one rerun.
 */
export async function retryCall(
  { ack, body, action, respond }: ButtonArgs,
  deps: CommandDeps,
): Promise<void> {
  await ack();
  const target = retryTargetOf(action.value);
  const [channel, ts] = [body.channel?.id, body.message?.ts];
  if (!target || !channel || !ts) return;
  const click = { body, respond };
  if (!(await isOwnersClick(click, deps, target.owner, (t) => t.retryNotYours))) return;
  const origin = originOfInteraction(body);
  // The person's session (closed if they were away longer than its idle time) opens during the claim and reply.
  deps.results.warm(target.server, origin);
  const locale = await deps.locales.of(body.user.id, body.team?.id);
  if (!(await deps.results.claimRetry(channel, ts))) {
    await notePrivately(click, deps, (t) => t.retryTaken);
    return;
  }
  // Replacing the message removes its buttons, so one click is one retry.
  const retrying = retryingMessage({ ...target, locale });
  try {
    await retriedRespond(respond, { replace_original: true, text: retrying.text, blocks: retrying.blocks });
  } finally {
    // The claim is taken: a "Retrying…" Slack refused must not stop the run, or no click could start it again.
    await deps.results.run({ ...target, origin }, { warmed: true });
  }
}

/** Link buttons open their URL in the browser; Slack still sends the click, which needs an ack. */
export async function ackLinkClick({ ack }: SlackActionMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
  await ack();
}
