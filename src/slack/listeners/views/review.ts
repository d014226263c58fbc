// The review step: it carries the answers it shows; Send relays exactly those, and closes the form under it too.
import { questionIdOf, reviewedContent } from '../../../../blocks/index.js';
import { checkAnswerer } from '../../answerable.js';
import { finishedView, refusalText, type Refusal } from '../../texts.js';
import type { ListenerDeps } from '../deps.js';
import { closed, type ClosedArgs, type SubmitArgs } from './form.js';

type Deps = Pick<ListenerDeps, 'relay' | 'surface'>;

export async function sendReview({ ack, body, view }: SubmitArgs, deps: Deps): Promise<void> {
  const locale = await deps.surface.locales.of(body.user.id, body.team?.id);
  const refuse = (refusal: Refusal) =>
    ack({ response_action: 'update', view: finishedView(refusalText(refusal, locale), locale) });
  const check = await checkAnswerer(deps, questionIdOf(view) ?? '', body);
  const content = reviewedContent(view);
  if ('refusal' in check || !content)
    return refuse('refusal' in check ? check.refusal : { ended: 'missing' });
  const result = await deps.relay.finish(check.question.id, { action: 'accept', content }, 'answered');
  if (!result.won) return refuse({ ended: result.state });
  await ack({ response_action: 'clear' });
  await deps.surface.showEnded(result.question, body.user.id);
}

/** Back on the review view returns to the form (nothing to do); the X closes everything, like the form's. */
export async function closeReview({ ack, body, view }: ClosedArgs, deps: Deps): Promise<void> {
  await ack();
  if ('is_cleared' in body && body.is_cleared) await closed(deps, body, questionIdOf(view) ?? '');
}
