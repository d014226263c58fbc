// View submissions and closes: the question form, its review step, and `/mcp run`'s arguments form.
import { FORM_CALLBACK, REVIEW_CALLBACK, RUN_FORM_CALLBACK } from '../../../../blocks/index.js';
import type { ListenerDeps } from '../deps.js';
import type { InteractionRoutes } from '../routes.js';
import { closeForm, submitForm } from './form.js';
import { closeReview, sendReview } from './review.js';
import { submitRunForm } from './run-form.js';

export function register(routes: InteractionRoutes, deps: ListenerDeps): void {
  routes.submission(FORM_CALLBACK, async (args) => submitForm(args, deps));
  routes.submission(REVIEW_CALLBACK, async (args) => sendReview(args, deps));
  routes.close(FORM_CALLBACK, async (args) => closeForm(args, deps));
  routes.close(REVIEW_CALLBACK, async (args) => closeReview(args, deps));
  routes.submission(RUN_FORM_CALLBACK, async (args) => submitRunForm(args, deps));
}
