// The review step: Send relays the person's reviewed draft as the bot stored it (never anything carried in
// the view) and closes the form under it too.
import { questionIdOf } from '../../../../blocks/index.js';
import type { ListenerDeps } from '../deps.js';
import { closed, submitted, type ClosedArgs, type SubmitArgs } from './form.js';

type Deps = Pick<ListenerDeps, 'answering' | 'surface'>;

export async function sendReview(args: SubmitArgs, deps: Deps): Promise<void> {
  await submitted(args, deps, { kind: 'send' });
}

/** Back on the review view returns to the form (nothing to do); the X closes everything, like the form's. */
export async function closeReview({ ack, body, view }: ClosedArgs, deps: Deps): Promise<void> {
  await ack();
  const cleared = 'is_cleared' in body && body.is_cleared === true;
  await closed(deps, body, questionIdOf(view) ?? '', { kind: 'close', from: 'review', cleared });
}
