// Publishes the Home tab whenever a person opens it.
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

export async function appHomeOpened(
  { event, client, context }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs,
  deps: Pick<ListenerDeps, 'home'>,
): Promise<void> {
  if (event.tab !== 'home') return;
  await deps.home.publish(event.user, context.teamId, client);
}
