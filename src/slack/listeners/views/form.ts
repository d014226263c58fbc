// The form modal: submit (one page at a time for long forms) and close. Each only translates Slack's payload
// into an act for the answering service and its reply into Slack's ack. The person's draft (answers so far,
// page, review) lives in Redis with the question, so any replica takes the next step, and nothing but the
// question id travels in the views.
import type {
  AllMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewClosedAction,
  ViewOutput,
  ViewSubmitAction,
} from '@slack/bolt';
import { questionIdOf, viewLocaleOf } from '../../../../blocks/index.js';
import type { Act, Actor } from '../../../answering/decide.js';
import { submitAck } from '../../answer-replies.js';
import { LOCALE_BEFORE_REPLY_MS } from '../../locales.js';
import type { ListenerDeps } from '../deps.js';

export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ClosedArgs = SlackViewMiddlewareArgs<ViewClosedAction> & AllMiddlewareArgs;
type Deps = Pick<ListenerDeps, 'answering' | 'surface'>;

export async function submitForm(args: SubmitArgs, deps: Deps): Promise<void> {
  const { view } = args;
  await submitted(args, deps, { kind: 'submit', values: view.state.values, shownBlockIds: inputsOf(view) });
}

/** The block_ids of the view's inputs: which form page the person has on screen. */
export function inputsOf(view: ViewOutput): string[] {
  return view.blocks.flatMap((b) => (b.type === 'input' && b.block_id ? [b.block_id] : []));
}

/** A submit of the form or of its review: the act, answered with the service's reply as Slack's ack. */
export async function submitted({ ack, body, view }: SubmitArgs, deps: Deps, act: Act): Promise<void> {
  // The view says which language it was drawn in; only a view that does not (drawn before it said) asks Slack
  // for the person's locale, beside the question's reads, not before them. If Slack cannot say, the answer is
  // still taken, in the default language.
  const locale =
    viewLocaleOf(view) ?? deps.surface.locales.within(body.user.id, body.team?.id, LOCALE_BEFORE_REPLY_MS);
  await deps.answering.act(questionIdOf(view) ?? '', body, act, {
    locale,
    reply: async (reply) => ack(submitAck(reply, view, await locale)),
  });
}

export async function closeForm({ ack, body, view }: ClosedArgs, deps: Deps): Promise<void> {
  await ack();
  await closed(deps, body, questionIdOf(view) ?? '', { kind: 'close', from: 'form', cleared: false });
}

/** The person closed the form: the service cancels, unless the server's policy keeps the question open. */
export async function closed(deps: Deps, actor: Actor, questionId: string, act: Act): Promise<void> {
  await deps.answering.act(questionId, actor, act, { reply: () => Promise.resolve() });
}
