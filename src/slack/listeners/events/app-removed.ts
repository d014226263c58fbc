// The app left a workspace: app_uninstalled, or tokens_revoked naming bot users (the bot token is dead; revoked
// user tokens alone change nothing here, the bot keeps none). Bolt acks events before any listener runs and
// skips authorize for these two (the token is gone), so its context names the workspace from the envelope.
import type { AllMiddlewareArgs, Context, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import type { Departure } from '../../uninstalls.js';

export async function appUninstalled(
  { body, context }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs,
  deps: Pick<ListenerDeps, 'uninstalls'>,
): Promise<void> {
  await deps.uninstalls.gone(departureOf('app_uninstalled', context, body.event_time));
}

export async function tokensRevoked(
  { event, body, context }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs,
  deps: Pick<ListenerDeps, 'uninstalls'>,
): Promise<void> {
  if ((event.tokens.bot ?? []).length === 0) return;
  await deps.uninstalls.gone(departureOf('tokens_revoked', context, body.event_time));
}

/** `eventTime`: the envelope's event_time, which a redelivery keeps (a reinstall since is told by it). */
function departureOf(event: Departure['event'], context: Context, eventTime: number): Departure {
  return {
    event,
    eventTime,
    ...(context.teamId ? { teamId: context.teamId } : {}),
    ...(context.enterpriseId ? { enterpriseId: context.enterpriseId } : {}),
    isEnterpriseInstall: context.isEnterpriseInstall,
  };
}
