// External selects (fields with more than 100 options): as the person types, Slack asks for options with
// block_suggestion; the bot answers with the matching options of the question's own schema (at most 100).
import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { parseFormSchema, questionIdOf, suggestOptions, viewLocaleOf } from '../../../../blocks/index.js';
import type { ListenerDeps } from '../deps.js';

export async function blockSuggestion(
  { ack, payload }: SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs,
  deps: Pick<ListenerDeps, 'answering'>,
): Promise<void> {
  const id = questionIdOf(payload.view ?? {});
  const check = id === undefined ? undefined : await deps.answering.answerable(id, payload);
  // No question (not a form view, or it was removed), one this person may not answer now, or a URL-mode
  // one: Slack shows no options.
  const schema = check && 'question' in check ? check.question.requestedSchema : undefined;
  const options =
    schema === undefined || schema === null
      ? []
      : suggestOptions(
          parseFormSchema(schema),
          payload.action_id,
          payload.value,
          viewLocaleOf(payload.view ?? {}),
        );
  await ack({ options });
}
