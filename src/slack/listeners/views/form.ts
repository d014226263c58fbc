// The form modal: submit (one page at a time for long forms) and close.
// Earlier pages' answers live in Redis with the question (a draft), so any replica can take the next page.
import type {
  AllMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewClosedAction,
  ViewSubmitAction,
} from '@slack/bolt';
import {
  approvesSomething,
  formModal,
  mergePageContent,
  pageCount,
  pageOf,
  parseFormSchema,
  questionIdOf,
  readSubmission,
  reviewModal,
  type FormSpec,
  type ModalView,
} from '../../../../blocks/index.js';
import type { Content, Question } from '../../../relay/types.js';
import { checkAnswerer, type Actor } from '../../answerable.js';
import type { SlackSurface } from '../../surface.js';
import { finishedView, refusalText, type Refusal } from '../../texts.js';
import type { ListenerDeps } from '../deps.js';

export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ClosedArgs = SlackViewMiddlewareArgs<ViewClosedAction> & AllMiddlewareArgs;
type Deps = Pick<ListenerDeps, 'relay' | 'surface'>;
type Locale = Awaited<ReturnType<SlackSurface['locales']['of']>>;

export async function submitForm({ ack, body, view }: SubmitArgs, deps: Deps): Promise<void> {
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
    return ack({ response_action: 'update', view: pageView(question, page + 1, content, locale) });
  }
  const review = reviewFor(deps, question, spec, content, locale);
  if (review) return ack({ response_action: 'push', view: review });
  const result = await deps.relay.finish(question.id, { action: 'accept', content }, 'answered');
  if (!result.won) return refuse({ ended: result.state });
  await ack();
  await deps.surface.showEnded(result.question, body.user.id);
}

export async function closeForm({ ack, body, view }: ClosedArgs, deps: Deps): Promise<void> {
  await ack();
  await closed(deps, body, questionIdOf(view) ?? '');
}

/** The person closed the form: cancel, unless the server's policy keeps the question open (onClose: keep). */
export async function closed(deps: Deps, actor: Actor, questionId: string): Promise<void> {
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
  locale: Locale,
): ModalView | undefined {
  const policy = deps.surface.audience.policyOf(question.server).review;
  const wanted = policy === 'always' || (policy === 'auto' && approvesSomething(spec));
  if (!wanted) return undefined;
  return reviewModal(spec, { questionId: question.id, server: question.server, content, locale });
}

/** The form's page `page`, filled with `answers` (the draft). */
export function pageView(question: Question, page: number, answers: Question['draft'], locale: Locale) {
  return formModal(parseFormSchema(question.requestedSchema), {
    questionId: question.id,
    server: question.server,
    message: question.message,
    locale,
    page,
    ...(answers ? { answers } : {}),
  });
}
