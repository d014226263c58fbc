// A card's buttons: Respond (opens the form), Decline, and a URL-mode card's link (consent). Each acks inside
// Slack's 3 s and hands the act to the answering service (src/answering), which checks the question's state and
// its answerer, so duplicate clicks, late clicks and other people's clicks get a friendly reply instead of an
// error, and a click it could not record (Redis down or slow) is told so.
import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Act } from '../../../answering/decide.js';
import type { Reply } from '../../../answering/service.js';
import { clickNote, formPage, hasNote } from '../../answer-replies.js';
import { retriedRespond, retriedWithinTrigger } from '../../retried.js';
import { finishedView } from '../../texts.js';
import type { ListenerDeps } from '../deps.js';
import { LOCALE_BEFORE_REPLY_MS } from '../../locales.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

export async function openForm(args: ButtonArgs, deps: ListenerDeps): Promise<void> {
  const { ack, body, action, client } = args;
  await ack();
  // The trigger_id lives 3 s: the answering service replies within REPLY_WITHIN_MS whatever Redis does.
  const locale = deps.surface.locales.within(body.user.id, body.team?.id, LOCALE_BEFORE_REPLY_MS);
  await deps.answering.act(
    action.value ?? '',
    body,
    { kind: 'open' },
    {
      locale,
      reply: async (reply) => {
        if (reply.kind !== 'page') return tell(args, deps, reply);
        const view = formPage(reply.question, reply.draft, await locale);
        const open = () => client.views.open({ trigger_id: body.trigger_id, view: view });
        const opened = await retriedWithinTrigger(open);
        if (opened.view?.id) await deps.modals.opened(reply.question, opened.view.id, body.user.id);
      },
    },
  );
}

export async function decline(args: ButtonArgs, deps: ListenerDeps): Promise<void> {
  await actOnCard(args, deps, { kind: 'decline' });
}

/**
 * A URL-mode card's link button (Slack opens the link in the person's browser; the click is their consent), or
 * a 2026 URL card's Retry (the step is done, by the person's word: the call is sent again).
 */
export async function consentToUrl(args: ButtonArgs, deps: ListenerDeps): Promise<void> {
  await actOnCard(args, deps, { kind: 'consent' });
}

/** A 2026 URL card's Cancel: the round's answer is cancel, which ends the call. */
export async function cancelUrl(args: ButtonArgs, deps: ListenerDeps): Promise<void> {
  await actOnCard(args, deps, { kind: 'cancel' });
}

async function actOnCard(args: ButtonArgs, deps: ListenerDeps, act: Act): Promise<void> {
  const { ack, body, action } = args;
  await ack();
  await deps.answering.act(action.value ?? '', body, act, { reply: (reply) => tell(args, deps, reply) });
}

/**
 * Tells the person why nothing happened: privately under a card, or, for a click on the App Home (which
 * carries the Home view and no response_url), in a modal opened on the click's trigger_id, while the Home is
 * refreshed to show the question's real state (a button that only vanished would leave them guessing).
 */
async function tell(args: ButtonArgs, deps: ListenerDeps, reply: Reply): Promise<void> {
  const { body, respond, client } = args;
  if (!hasNote(reply)) return;
  if (body.view?.type === 'home') {
    const refreshed = deps.home.refresh(body.user.id, body.team?.id);
    // Its failure (Redis away) is passed on below; until then it must not count as unhandled, which would
    // stop the process while the modal opens.
    refreshed.catch(() => undefined);
    // The trigger_id lives 3 s: the language is waited for only briefly.
    const locale = await deps.surface.locales.within(body.user.id, body.team?.id, LOCALE_BEFORE_REPLY_MS);
    const view = finishedView(clickNote(reply, locale), locale);
    await retriedWithinTrigger(() => client.views.open({ trigger_id: body.trigger_id, view }));
    return refreshed;
  }
  const locale = await deps.surface.locales.of(body.user.id, body.team?.id);
  const note = {
    response_type: 'ephemeral',
    replace_original: false,
    text: clickNote(reply, locale),
  } as const;
  await retriedRespond(respond, note);
}
