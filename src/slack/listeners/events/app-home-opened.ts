// Publishes the Home tab whenever a person opens it, as a refresh (home.ts): in views.publish's paced slots shared
// with the other refreshes, coalesced with one already under way, and made again after a 429's Retry-After.
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

export async function appHomeOpened(
  { event, context }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs,
  deps: Pick<ListenerDeps, 'home'>,
): Promise<void> {
  if (event.tab !== 'home') return;
  await deps.home.refresh(event.user, context.teamId);
}
