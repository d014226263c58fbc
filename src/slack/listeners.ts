// Thin Bolt listeners: each acks inside Slack's 3 s, then hands the work to the relay.
// Every interaction checks the question's state and its answerer, so duplicate clicks, late submits and
// other people's clicks get a friendly reply instead of an error.
import type { AllMiddlewareArgs, App, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import {
  DECLINE_ACTION,
  FORM_CALLBACK,
  RESPOND_ACTION,
  formModal,
  parseFormSchema,
  questionIdOf,
  readSubmission,
} from '../../blocks/index.js';
import type { Relay } from '../relay/relay.js';
import type { Question } from '../relay/types.js';
import { registerMcpCommand, type ToolRunner } from './command-listener.js';
import { finishedView, notPendingText, notYoursText } from './texts.js';
import type { SlackSurface } from './surface.js';

export interface ListenerDeps {
  relay: Relay;
  surface: SlackSurface;
  tools: ToolRunner;
}

export function registerListeners(app: App, deps: ListenerDeps): void {
  registerMcpCommand(app, deps);
  app.action<BlockButtonAction>(RESPOND_ACTION, async (args) => openForm(args, deps));
  app.action<BlockButtonAction>(DECLINE_ACTION, async (args) => decline(args, deps));
  app.view(FORM_CALLBACK, async ({ ack, body, view }) => {
    const check = answerable(await deps.relay.get(questionIdOf(view) ?? ''), body.user.id);
    if ('refusal' in check) return ack({ response_action: 'update', view: finishedView(check.refusal) });
    const { question } = check;
    const spec = parseFormSchema(question.requestedSchema);
    const locale = await deps.surface.locales.of(body.user.id);
    const submission = readSubmission(spec, view.state.values, { locale });
    if (!submission.ok) return ack({ response_action: 'errors', errors: submission.errors });
    const result = await deps.relay.finish(
      question.id,
      { action: 'accept', content: submission.content },
      'answered',
    );
    if (!result.won)
      return ack({ response_action: 'update', view: finishedView(notPendingText(result.state)) });
    await ack();
    await deps.surface.showEnded(result.question, body.user.id);
  });
  app.view({ callback_id: FORM_CALLBACK, type: 'view_closed' }, async ({ ack, body, view }) => {
    await ack();
    const check = answerable(await deps.relay.get(questionIdOf(view) ?? ''), body.user.id);
    if ('refusal' in check) return;
    await deps.relay.end(check.question.id, { action: 'cancel' }, 'closed', body.user.id);
  });
}

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

async function openForm(
  { ack, body, action, client, respond }: ButtonArgs,
  deps: ListenerDeps,
): Promise<void> {
  await ack();
  const check = answerable(await deps.relay.get(action.value ?? ''), body.user.id);
  if ('refusal' in check) {
    await respond({ response_type: 'ephemeral', replace_original: false, text: check.refusal });
    return;
  }
  const { question } = check;
  const view = formModal(parseFormSchema(question.requestedSchema), {
    locale: await deps.surface.locales.of(body.user.id),
    questionId: question.id,
    server: question.server,
    message: question.message,
  });
  await client.views.open({ trigger_id: body.trigger_id, view: view as never });
}

async function decline({ ack, body, action, respond }: ButtonArgs, deps: ListenerDeps): Promise<void> {
  await ack();
  const check = answerable(await deps.relay.get(action.value ?? ''), body.user.id);
  const result =
    'refusal' in check
      ? undefined
      : await deps.relay.end(check.question.id, { action: 'decline' }, 'declined', body.user.id);
  const refusal =
    'refusal' in check ? check.refusal : result && !result.won ? notPendingText(result.state) : undefined;
  if (refusal) await respond({ response_type: 'ephemeral', replace_original: false, text: refusal });
}

/** The question when this user may answer it now, or why they may not. */
function answerable(
  question: Question | undefined,
  userId: string,
): { question: Question } | { refusal: string } {
  if (!question) return { refusal: notPendingText('missing') };
  if (question.state !== 'pending') return { refusal: notPendingText(question.state) };
  if (question.userId !== userId) return { refusal: notYoursText(question.userId) };
  return { question };
}
