// The form modal: submit (one page at a time for long forms), Back, the review step, and close.
// Earlier pages' answers live in Redis with the question (a draft), so any replica can take the next page.
// The review view carries the answers it shows; Send relays exactly those.
import type { App, BlockButtonAction } from '@slack/bolt';
import {
  FORM_CALLBACK,
  PAGE_BACK_ACTION,
  REVIEW_CALLBACK,
  approvesSomething,
  formModal,
  mergePageContent,
  pageCount,
  pageOf,
  parseFormSchema,
  questionIdOf,
  readSubmission,
  reviewModal,
  reviewedContent,
  type FormSpec,
} from '../../blocks/index.js';
import type { Relay } from '../relay/relay.js';
import type { Content, Question } from '../relay/types.js';
import { checkAnswerer, type Actor } from './answerable.js';
import type { SlackSurface } from './surface.js';
import { finishedView, refusalText, type Refusal } from './texts.js';

export function registerFormListeners(app: App, deps: Deps): void {
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
    const review = reviewFor(deps, question, spec, content, locale);
    if (review) return ack({ response_action: 'push', view: review as never });
    const result = await deps.relay.finish(question.id, { action: 'accept', content }, 'answered');
    if (!result.won) return refuse({ ended: result.state });
    await ack();
    await deps.surface.showEnded(result.question, body.user.id);
  });

  // Send on the review view: relay the answers it showed, and close the form under it too.
  app.view(REVIEW_CALLBACK, async ({ ack, body, view }) => {
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
    await closed(deps, body, questionIdOf(view) ?? '');
  });

  // Back on the review view returns to the form (nothing to do); the X closes everything, like the form's.
  app.view({ callback_id: REVIEW_CALLBACK, type: 'view_closed' }, async ({ ack, body, view }) => {
    await ack();
    if ('is_cleared' in body && body.is_cleared) await closed(deps, body, questionIdOf(view) ?? '');
  });
}

type Deps = { relay: Relay; surface: SlackSurface };

/** The person closed the form: cancel, unless the server's policy keeps the question open (onClose: keep). */
async function closed(deps: Deps, actor: Actor, questionId: string): Promise<void> {
  const check = await checkAnswerer(deps, questionId, actor);
  if ('refusal' in check) return;
  if (deps.surface.audience.policyOf(check.question.server).onClose === 'keep') return;
  await deps.relay.end(check.question.id, { action: 'cancel' }, 'closed', actor.user.id);
}

/** The review view to push before sending, when the server's policy (or an approving form) asks for one. */
function reviewFor(
  deps: Deps,
  question: Question,
  spec: FormSpec,
  content: Content,
  locale: Awaited<ReturnType<SlackSurface['locales']['of']>>,
): object | undefined {
  const policy = deps.surface.audience.policyOf(question.server).review;
  const wanted = policy === 'always' || (policy === 'auto' && approvesSomething(spec));
  if (!wanted) return undefined;
  return reviewModal(spec, { questionId: question.id, server: question.server, content, locale });
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
