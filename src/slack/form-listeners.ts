// The form modal: submit (one page at a time for long forms), Back, and close.
// Earlier pages' answers live in Redis with the question (a draft), so any replica can take the next page.
import type { App, BlockButtonAction } from '@slack/bolt';
import {
  FORM_CALLBACK,
  PAGE_BACK_ACTION,
  formModal,
  mergePageContent,
  pageCount,
  pageOf,
  parseFormSchema,
  questionIdOf,
  readSubmission,
} from '../../blocks/index.js';
import type { Relay } from '../relay/relay.js';
import type { Question } from '../relay/types.js';
import { checkAnswerer } from './answerable.js';
import type { SlackSurface } from './surface.js';
import { finishedView, refusalText, type Refusal } from './texts.js';

export function registerFormListeners(app: App, deps: { relay: Relay; surface: SlackSurface }): void {
  app.view(FORM_CALLBACK, async ({ ack, body, view }) => {
    const locale = await deps.surface.locales.of(body.user.id, body.team?.id);
    const refuse = (refusal: Refusal) =>
      ack({ response_action: 'update', view: finishedView(refusalText(refusal, locale), locale) });
    const check = await checkAnswerer(deps, questionIdOf(view) ?? '', body);
    if ('refusal' in check) return refuse(check.refusal);
    const { question } = check;
    const spec = parseFormSchema(question.requestedSchema);
    const page = pageOf(view);
    const submission = readSubmission(spec, view.state.values, { page, locale });
    if (!submission.ok) return ack({ response_action: 'errors', errors: submission.errors });
    const content = mergePageContent(spec, question.draft ?? {}, submission.content, page);
    if (page + 1 < pageCount(spec)) {
      if (!(await deps.relay.saveDraft(question.id, content))) return refuse({ ended: 'missing' });
      return ack({ response_action: 'update', view: pageView(question, page + 1, content, locale) as never });
    }
    const result = await deps.relay.finish(question.id, { action: 'accept', content }, 'answered');
    if (!result.won) return refuse({ ended: result.state });
    await ack();
    await deps.surface.showEnded(result.question, body.user.id);
  });

  app.action<BlockButtonAction>(PAGE_BACK_ACTION, async ({ ack, body, client }) => {
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
    await client.views.update({ view_id: body.view.id, hash: body.view.hash, view: back as never });
  });

  app.view({ callback_id: FORM_CALLBACK, type: 'view_closed' }, async ({ ack, body, view }) => {
    await ack();
    const check = await checkAnswerer(deps, questionIdOf(view) ?? '', body);
    if ('refusal' in check) return;
    await deps.relay.end(check.question.id, { action: 'cancel' }, 'closed', body.user.id);
  });
}

function pageView(
  question: Question,
  page: number,
  answers: Question['draft'],
  locale: Awaited<ReturnType<SlackSurface['locales']['of']>>,
) {
  return formModal(parseFormSchema(question.requestedSchema), {
    questionId: question.id,
    server: question.server,
    message: question.message,
    locale,
    page,
    ...(answers ? { answers } : {}),
  });
}
