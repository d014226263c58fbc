// Back on a long form's page: the answering service keeps in the person's draft what the page on screen holds
// (Slack sends the view's state.values with a click in it), moves the draft one page back, and the view shows
// that page filled from the draft; Next later shows the page left filled as it was.
import { questionIdOf } from '../../../../blocks/index.js';
import { formPage } from '../../answer-replies.js';
import { retried } from '../../retried.js';
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
        if (reply.kind !== 'page') return;
        const back = formPage(reply.question, reply.draft, locale);
        await retried(() => client.views.update({ view_id: view.id, hash: view.hash, view: back }));
      },
    },
  );
}
