// Interactions no listener takes (a submit or close of a notice view, a click on an id nobody handles) are
// acked at once. Without this, Bolt waits its unhandledRequestTimeoutMillis (3 s) and answers 404, which
// Slack shows the person as an error. Bolt runs every listener that matches, so the catch-alls match only ids
// that no other listener takes; each kind's index names the ids it registers.
import type { AllMiddlewareArgs, App, SlackActionMiddlewareArgs, SlackViewMiddlewareArgs } from '@slack/bolt';

/** The ids some listener takes, by kind of interaction. */
export interface TakenIds {
  viewSubmissions: readonly string[];
  viewCloses: readonly string[];
  /** Exact action ids, and prefixes for families such as numbered link buttons. */
  actions: readonly string[];
  actionPrefixes: readonly string[];
}

export function registerUnmatched(app: App, taken: TakenIds): void {
  app.view({ type: 'view_submission', callback_id: noneOf(taken.viewSubmissions) }, ackAtOnce);
  app.view({ type: 'view_closed', callback_id: noneOf(taken.viewCloses) }, ackAtOnce);
  app.action({ action_id: noneOf(taken.actions, taken.actionPrefixes) }, ackAtOnce);
}

/** Acks with an empty 200: a view submission closes its view, a close or a click needs nothing more. */
export async function ackAtOnce({
  ack,
}: (SlackViewMiddlewareArgs | SlackActionMiddlewareArgs) & AllMiddlewareArgs): Promise<void> {
  await ack();
}

/** Matches any id except those given exactly and those starting with one of `prefixes`. */
export function noneOf(ids: readonly string[], prefixes: readonly string[] = []): RegExp {
  const exact = ids.map((id) => `${escapeRegExp(id)}$`);
  const starts = prefixes.map(escapeRegExp);
  const taken = [...exact, ...starts];
  return taken.length === 0 ? /^/ : new RegExp(`^(?!(?:${taken.join('|')}))`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
