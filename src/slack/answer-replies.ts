// The answering service's replies (src/answering) in Slack's words: what a view submission is acked with,
// the form page or review to show, and the private note under a card. Plain data; no Slack calls.
import type { ViewOutput, ViewResponseAction } from '@slack/bolt';
import {
  REVIEW_CALLBACK,
  formModal,
  parseFormSchema,
  reviewModal,
  uiText,
  type Locale,
} from '../../blocks/index.js';
import type { Reply } from '../answering/service.js';
import type { Draft, Question } from '../relay/types.js';
import { finishedView, refusalText } from './texts.js';

/** block_id of the "not saved" warning put above a view without inputs. */
const NOT_SAVED_BLOCK = 'elicit_not_saved';

/** The form at the draft's page, pre-filled with its answers, with `errors` under their fields. */
export function formPage(question: Question, draft: Draft, locale: Locale, errors?: Record<string, string>) {
  return formModal(parseFormSchema(question.requestedSchema), {
    questionId: question.id,
    server: question.server,
    message: question.message,
    locale,
    page: draft.page,
    answers: draft.answers,
    ...(errors ? { errors } : {}),
  });
}

/**
 * What a submit of the form or of its review is acked with; undefined for a plain ack (which closes the view).
 * `submitted` is the view the person submitted: a submit that could not be stored keeps it, with what they typed.
 */
export function submitAck(
  reply: Reply,
  submitted: ViewOutput,
  locale: Locale,
): ViewResponseAction | undefined {
  switch (reply.kind) {
    case 'refuse':
      return { response_action: 'update', view: finishedView(refusalText(reply.refusal, locale), locale) };
    case 'ignore':
      return undefined;
    case 'page':
      return {
        response_action: 'update',
        view: formPage(reply.question, reply.draft, locale, reply.errors),
      };
    case 'errors':
      return { response_action: 'errors', errors: reply.errors };
    case 'review': {
      const spec = parseFormSchema(reply.question.requestedSchema);
      const { id: questionId, server } = reply.question;
      return {
        response_action: 'push',
        view: reviewModal(spec, { questionId, server, content: reply.draft.answers, locale }),
      };
    }
    case 'finished':
      // Send on the review closes the form under it too.
      return submitted.callback_id === REVIEW_CALLBACK ? { response_action: 'clear' } : undefined;
    case 'not_recorded':
      return notSaved(submitted, uiText(locale).refusals.notSaved);
    case 'unconfirmed':
      return notSaved(submitted, uiText(locale).refusals.maybeNotSaved);
  }
}

/**
 * Tells the person their submit was not (or may not have been) saved, keeping the view as it is: `text` as an
 * error on its first input (Slack keeps what was typed), or as a warning above a view without inputs (the review).
 */
function notSaved(submitted: ViewOutput, text: string): ViewResponseAction {
  const firstInput = submitted.blocks.find((block) => block.type === 'input' && block.block_id !== undefined);
  if (firstInput?.block_id) return { response_action: 'errors', errors: { [firstInput.block_id]: text } };
  return {
    response_action: 'update',
    view: {
      type: 'modal',
      callback_id: submitted.callback_id,
      title: submitted.title,
      ...(submitted.submit ? { submit: submitted.submit } : {}),
      ...(submitted.close ? { close: submitted.close } : {}),
      private_metadata: submitted.private_metadata,
      notify_on_close: submitted.notify_on_close,
      blocks: [
        { type: 'section', block_id: NOT_SAVED_BLOCK, text: { type: 'mrkdwn', text: `:warning: ${text}` } },
        // Without the warning of an earlier failed submit, so warnings do not pile up.
        ...submitted.blocks.filter((block) => block.block_id !== NOT_SAVED_BLOCK),
      ],
    },
  };
}

/** A reply to a click that changed nothing, which the person is told about. */
export type NotedReply = Extract<Reply, { kind: 'refuse' | 'not_recorded' | 'unconfirmed' }>;

export const hasNote = (reply: Reply): reply is NotedReply =>
  reply.kind === 'refuse' || reply.kind === 'not_recorded' || reply.kind === 'unconfirmed';

/** The private note under a card for a click that changed nothing (or may not have). */
export function clickNote(reply: NotedReply, locale: Locale): string {
  const t = uiText(locale).refusals;
  switch (reply.kind) {
    case 'refuse':
      return refusalText(reply.refusal, locale);
    case 'not_recorded':
      return t.notRecorded;
    case 'unconfirmed':
      return t.maybeNotRecorded;
  }
}
