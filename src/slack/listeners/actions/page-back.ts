// Back on a long form's page: shows the previous page, filled from the draft.
import { pageOf, questionIdOf } from '../../../../blocks/index.js';
import { checkAnswerer } from '../../answerable.js';
import type { ListenerDeps } from '../deps.js';
import { pageView } from '../views/form.js';
import type { ButtonArgs } from './question-buttons.js';

export async function pageBack(
  { ack, body, client }: ButtonArgs,
  deps: Pick<ListenerDeps, 'relay' | 'surface'>,
): Promise<void> {
  await ack();
  if (!body.view) return;
  const check = await checkAnswerer(deps, questionIdOf(body.view) ?? '', body);
  if ('refusal' in check) return;
  const locale = await deps.surface.locales.of(body.user.id, body.team?.id);
  const back = pageView(
    check.question,
    Math.max(0, pageOf(body.view) - 1),
    check.question.draft ?? {},
    locale,
  );
  await client.views.update({ view_id: body.view.id, hash: body.view.hash, view: back });
}
