// Back on a long form's page: the answering service keeps in the person's draft what the page on screen holds
// (Slack sends the view's state.values with a click in it), moves the draft one page back, and the view shows
// that page filled from the draft; Next later shows the page left filled as it was. Back on the form of a question
// that has ended replaces the form with the note saying so.
import { questionIdOf } from '../../../../blocks/index.js';
import { formPage } from '../../answer-replies.js';
import { retried } from '../../retried.js';
import { finishedView, refusalText } from '../../texts.js';
import type { ListenerDeps } from '../deps.js';
import { inputsOf } from '../views/form.js';
import type { ButtonArgs } from './question-buttons.js';

export async function pageBack(
  { ack, body, client }: ButtonArgs,
  deps: Pick<ListenerDeps, 'answering' | 'surface'>,
): Promise<void> {
  await ack();
  const view = body.view;
  if (!view) return;
  const locale = await deps.surface.locales.of(body.user.id, body.team?.id);
  await deps.answering.act(
    questionIdOf(view) ?? '',
    body,
    { kind: 'back', values: view.state.values, shownBlockIds: inputsOf(view) },
    {
      reply: async (reply) => {
        // A question that ended (or a click not the person's to make) leaves no page to go back to: the form
        // says so, as a submit's would. Not recorded (Redis did not answer): the form stays, for another click.
        if (reply.kind !== 'page' && reply.kind !== 'refuse') return;
        const next =
          reply.kind === 'page'
            ? formPage(reply.question, reply.draft, locale)
            : finishedView(refusalText(reply.refusal, locale), locale);
        await retried(() => client.views.update({ view_id: view.id, hash: view.hash, view: next }));
      },
    },
  );
}
