// View submissions and closes: the question form, its review step, and `/mcp run`'s arguments form.
import type { App, ViewClosedAction, ViewSubmitAction } from '@slack/bolt';
import { FORM_CALLBACK, REVIEW_CALLBACK, RUN_FORM_CALLBACK } from '../../../../blocks/index.js';
import type { ListenerDeps } from '../deps.js';
import { closeForm, submitForm } from './form.js';
import { closeReview, sendReview } from './review.js';
import { submitRunForm } from './run-form.js';

/** The callback_ids registered below; every other submission or close is acked by the catch-all. */
export const TAKEN_SUBMISSIONS = [FORM_CALLBACK, REVIEW_CALLBACK, RUN_FORM_CALLBACK];
export const TAKEN_CLOSES = [FORM_CALLBACK, REVIEW_CALLBACK];

export function register(app: App, deps: ListenerDeps): void {
  app.view<ViewSubmitAction>(FORM_CALLBACK, async (args) => submitForm(args, deps));
  app.view<ViewSubmitAction>(REVIEW_CALLBACK, async (args) => sendReview(args, deps));
  app.view<ViewClosedAction>({ callback_id: FORM_CALLBACK, type: 'view_closed' }, async (args) =>
    closeForm(args, deps),
  );
  app.view<ViewClosedAction>({ callback_id: REVIEW_CALLBACK, type: 'view_closed' }, async (args) =>
    closeReview(args, deps),
  );
  app.view<ViewSubmitAction>(RUN_FORM_CALLBACK, async (args) => submitRunForm(args, deps));
}
