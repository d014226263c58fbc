// A card's buttons: Respond (opens the form), Decline, and a URL-mode card's link (consent). Each acks inside
// Slack's 3 s, then hands the work to the relay. Every interaction checks the question's state and its
// answerer, so duplicate clicks, late submits and other people's clicks get a friendly reply instead of an error.
import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { formModal, parseFormSchema } from '../../../../blocks/index.js';
import { checkAnswerer } from '../../answerable.js';
import { refusalText, type Refusal } from '../../texts.js';
import type { ListenerDeps } from '../deps.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

export async function openForm(args: ButtonArgs, deps: ListenerDeps): Promise<void> {
  const { ack, body, action, client } = args;
  await ack();
  // The trigger_id lives 3 s: the answerer check and the locale lookup (both may call Slack) run together.
  const [check, locale] = await Promise.all([
    checkAnswerer(deps, action.value ?? '', body),
    deps.surface.locales.of(body.user.id, body.team?.id),
  ]);
  if ('refusal' in check) return tell(args, deps, check.refusal);
  const { question } = check;
  const view = formModal(parseFormSchema(question.requestedSchema), {
    locale,
    questionId: question.id,
    server: question.server,
    message: question.message,
  });
  const opened = await client.views.open({ trigger_id: body.trigger_id, view });
  if (opened.view?.id) await deps.modals.opened(question, opened.view.id, body.user.id);
}

export async function decline(args: ButtonArgs, deps: ListenerDeps): Promise<void> {
  const { ack, body, action } = args;
  await ack();
  const check = await checkAnswerer(deps, action.value ?? '', body);
  if ('refusal' in check) return tell(args, deps, check.refusal);
  const result = await deps.relay.end(check.question.id, { action: 'decline' }, 'declined', body.user.id);
  if (!result.won) await tell(args, deps, { ended: result.state });
}

/** A URL-mode card's link button: Slack opens the link in the person's browser; the click is their consent. */
export async function consentToUrl(args: ButtonArgs, deps: ListenerDeps): Promise<void> {
  const { ack, body, action } = args;
  await ack();
  const check = await checkAnswerer(deps, action.value ?? '', body);
  if ('refusal' in check) return tell(args, deps, check.refusal);
  await deps.relay.end(check.question.id, { action: 'accept', content: {} }, 'answered', body.user.id);
}

/**
 * Tells the person why nothing happened: privately under a card, or, for a click on the App Home (which
 * carries the Home view and no response_url), by refreshing the Home so it shows the question's real state.
 */
async function tell({ body, respond }: ButtonArgs, deps: ListenerDeps, refusal: Refusal): Promise<void> {
  if (body.view?.type === 'home') return deps.home.refresh(body.user.id, body.team?.id);
  const locale = await deps.surface.locales.of(body.user.id, body.team?.id);
  await respond({ response_type: 'ephemeral', replace_original: false, text: refusalText(refusal, locale) });
}
