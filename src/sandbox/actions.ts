// What a person does on the page, sent to the bot as Slack would send it: every action goes through the
// SlackDriver as a signed request in Slack's exact shape, with a fresh single-use trigger_id.
import { RelayError } from '../relay/errors.js';
import {
  type Delivery,
  type FieldAnswer,
  type SlackDriver,
  type SlackStandin,
  StandinError,
  type StandinUser,
  VERIFICATION_TOKEN,
} from '../standin/index.js';
import type { Changes } from './changes.js';
import type { Timeline } from './state.js';

/** A request the page sent that cannot be carried out (unknown person, bad body). */
export class SandboxError extends RelayError<string> {
  override name = 'SandboxError';
}

export interface ActionDeps {
  standin: SlackStandin;
  driver: SlackDriver;
  changes: Changes;
  timeline: Timeline;
  people: Readonly<Record<string, StandinUser>>;
}

type Body = Record<string, unknown>;

/** What the page gets back: the bot's HTTP status and its parsed answer, when it had one. */
export interface ActionResult {
  status: number;
  ack?: unknown;
}

const str = (body: Body, key: string): string => {
  const value = body[key];
  if (typeof value !== 'string' || value === '')
    throw new SandboxError('bad_request', `"${key}" is required`);
  return value;
};

const result = (d: Delivery): ActionResult => ({
  status: d.status,
  ...(d.json !== undefined && { ack: d.json }),
});

function person(deps: ActionDeps, body: Body): string {
  const userId = str(body, 'user');
  if (!(userId in deps.people)) throw new SandboxError('unknown_person', `nobody called ${userId} is here`);
  return userId;
}

/** `/mcp run …` typed into the message box; the ack's text is shown to that person only, as in Slack. */
async function command(deps: ActionDeps, body: Body): Promise<ActionResult> {
  const userId = person(deps, body);
  const typed = str(body, 'text').trim();
  const match = /^(\/\S+)\s*([\s\S]*)$/.exec(typed);
  if (!match?.[1]) throw new SandboxError('not_a_command', 'type a slash command such as /mcp help');
  const delivery = await deps.driver.slashCommand({ userId, command: match[1], text: match[2] ?? '' });
  const ack = delivery.json as { text?: unknown } | undefined;
  const channel = deps.standin.dmChannelOf(userId);
  if (typeof ack?.text === 'string') deps.timeline.addNote({ userId, channel, text: ack.text });
  else if (delivery.status !== 200)
    deps.timeline.addNote({ userId, channel, text: `${match[1]} failed: HTTP ${delivery.status}` });
  deps.changes.bump();
  return result(delivery);
}

async function click(deps: ActionDeps, body: Body): Promise<ActionResult> {
  const userId = person(deps, body);
  const input = {
    userId,
    channel: str(body, 'channel'),
    ts: str(body, 'ts'),
    actionId: str(body, 'actionId'),
  };
  return result(await deps.driver.clickButton(input));
}

/** A button inside a modal (the form's Back button): block_actions with a view container. */
async function viewAction(deps: ActionDeps, body: Body): Promise<ActionResult> {
  const userId = person(deps, body);
  const viewId = str(body, 'viewId');
  const stored = deps.standin.view(viewId);
  if (!stored?.open || stored.userId !== userId)
    throw new SandboxError('view_not_open', `view ${viewId} is not open`);
  const { teamId, teamDomain, appId } = deps.standin.identity;
  const { name } = deps.standin.user(userId);
  const delivery = await deps.driver.send({
    payload: {
      type: 'block_actions',
      team: { id: teamId, domain: teamDomain },
      user: { id: userId, username: name, name, team_id: teamId },
      api_app_id: appId,
      token: VERIFICATION_TOKEN,
      trigger_id: deps.standin.issueTriggerId(userId),
      container: { type: 'view', view_id: viewId },
      view: stored.view,
      actions: [
        {
          type: 'button',
          action_id: str(body, 'actionId'),
          block_id: str(body, 'blockId'),
          ...(typeof body.value === 'string' && { value: body.value }),
          text: { type: 'plain_text', text: typeof body.label === 'string' ? body.label : '' },
          action_ts: (Date.now() / 1000).toFixed(6),
        },
      ],
      is_enterprise_install: false,
      enterprise: null,
    },
  });
  return result(delivery);
}

async function submit(deps: ActionDeps, body: Body): Promise<ActionResult> {
  const userId = person(deps, body);
  const raw = body.values;
  const values = typeof raw === 'object' && raw !== null ? (raw as Record<string, FieldAnswer>) : {};
  const delivery = await deps.driver.submitView({ userId, viewId: str(body, 'viewId'), values });
  deps.changes.bump();
  return result(delivery);
}

/**
 * The modal's close button (on a pushed view: back to the view under it), or with `all` its X (the whole
 * stack). Slack tells the app only when the view asked for notify_on_close; otherwise the view just closes.
 */
async function close(deps: ActionDeps, body: Body): Promise<ActionResult> {
  const userId = person(deps, body);
  const viewId = str(body, 'viewId');
  const clearStack = body.all === true;
  try {
    return result(await deps.driver.closeView({ userId, viewId, clearStack }));
  } catch (error) {
    if (!(error instanceof StandinError) || error.code !== 'notify_on_close_not_set') throw error;
    const stack = deps.standin.openViews(userId).map((v) => v.id);
    for (const id of clearStack ? stack : [viewId]) deps.standin.settleClose(id);
    return { status: 0 };
  } finally {
    deps.changes.bump();
  }
}

/** The person types into an external select: Slack asks the app for options (block_suggestion). */
async function suggest(deps: ActionDeps, body: Body): Promise<{ options: unknown[] }> {
  const userId = person(deps, body);
  const value = typeof body.value === 'string' ? body.value : '';
  const input = { userId, viewId: str(body, 'viewId'), actionId: str(body, 'actionId'), value };
  return { options: await deps.driver.suggest(input) };
}

/** The person opens the bot's Home tab: Slack sends app_home_opened, and the bot publishes their inbox. */
async function openHome(deps: ActionDeps, body: Body): Promise<ActionResult> {
  const delivery = await deps.driver.openHome(person(deps, body));
  deps.changes.bump();
  return result(delivery);
}

/** A button on the person's Home tab (Respond / Decline of a pending question). */
async function homeClick(deps: ActionDeps, body: Body): Promise<ActionResult> {
  const userId = person(deps, body);
  const value = typeof body.value === 'string' ? body.value : undefined;
  return result(await deps.driver.clickHomeButton({ userId, actionId: str(body, 'actionId'), value }));
}

export const ACTIONS: Record<string, (deps: ActionDeps, body: Body) => Promise<unknown>> = {
  '/api/command': command,
  '/api/click': click,
  '/api/view-action': viewAction,
  '/api/submit': submit,
  '/api/close': close,
  '/api/home-open': openHome,
  '/api/home-click': homeClick,
  '/api/suggest': suggest,
};
