// What a person does in an open modal, played for the driver (driver.ts): typing into an external select
// (block_suggestion), clicking a button in it (block_actions), submitting (view_submission) and closing
// (view_closed), each refused as Slack would refuse it (a view not open, someone else's, under another view,
// or without notify_on_close).
import type { Obj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import type { SlackStandin } from './standin.js';
import { buttonAction, findButton } from './payloads.js';
import { type FieldAnswer, buildStateValues } from './state-values.js';
import { findExternalSelect, suggestedOptions } from './suggestions.js';
import type { Delivery, Outgoing } from './transports.js';

/** The driver's side that a modal act needs: the stand-in, who acts, and the way to Slack's request. */
export interface Acting {
  standin: SlackStandin;
  /** The team, user, api_app_id and token fields of a payload from `userId`. */
  actor(userId: string): Obj;
  /**
   * The same for view_submission and view_closed, whose `team` Slack sends as null for an org-installed app
   * (its view payload reference: "Null if the app is org-installed"); the org is then in `enterprise`.
   */
  viewActor(userId: string): Obj;
  send(out: Outgoing): Promise<Delivery>;
}

export interface SuggestInput {
  userId: string;
  viewId: string;
  actionId: string;
  value: string;
}

export interface SubmitInput {
  userId: string;
  viewId: string;
  values: Record<string, FieldAnswer | undefined>;
}

export interface ViewClickInput {
  userId: string;
  viewId: string;
  actionId: string;
  /** What the view's inputs hold at the click, by block_id (Slack sends them as view.state.values). */
  values?: Record<string, FieldAnswer | undefined>;
}

export interface CloseInput {
  userId: string;
  viewId: string;
  clearStack?: boolean;
}

function openView(standin: SlackStandin, userId: string, viewId: string): Obj {
  const stored = standin.view(viewId);
  if (!stored?.open) throw new StandinError('view_not_open', `view ${viewId} is not open`);
  if (stored.userId !== userId)
    throw new StandinError('view_not_owned', `view ${viewId} belongs to ${stored.userId}`);
  return stored.view;
}

export async function suggest(d: Acting, input: SuggestInput): Promise<Obj[]> {
  const view = openView(d.standin, input.userId, input.viewId);
  const { blockId, element } = findExternalSelect(view, input.actionId);
  const min = typeof element.min_query_length === 'number' ? element.min_query_length : 3;
  if ([...input.value].length < min)
    throw new StandinError('query_too_short', `Slack asks only after ${min} characters`);
  const delivery = await d.send({
    payload: {
      type: 'block_suggestion',
      ...d.actor(input.userId),
      container: { type: 'view', view_id: input.viewId },
      action_id: input.actionId,
      block_id: blockId,
      value: input.value,
      view,
    },
  });
  const options = suggestedOptions(delivery.json);
  d.standin.keepSuggestions(input.viewId, input.actionId, options);
  return options;
}

export async function submitView(d: Acting, input: SubmitInput): Promise<Delivery> {
  const view = openView(d.standin, input.userId, input.viewId);
  const values = buildStateValues(view, input.values, d.standin.view(input.viewId)?.suggestions);
  const delivery = await d.send({
    payload: {
      type: 'view_submission',
      ...d.viewActor(input.userId),
      trigger_id: d.standin.issueTriggerId(input.userId),
      view: { ...view, state: { values } },
      response_urls: [],
    },
  });
  if (delivery.status === 200) {
    d.standin.settleSubmission(
      input.viewId,
      delivery.body === '' ? undefined : (delivery.json ?? delivery.body),
    );
  }
  return delivery;
}

/**
 * A button clicked in an open modal (Back on a paged form): block_actions with the view, what its inputs hold
 * (unchecked: Slack checks required fields only on submit) and a fresh trigger_id, and no response_url.
 */
export function clickInView(d: Acting & { nowMs(): number }, input: ViewClickInput): Promise<Delivery> {
  const view = openView(d.standin, input.userId, input.viewId);
  const found = findButton(view.blocks, input.actionId);
  if (!found)
    throw new StandinError('button_not_found', `view ${input.viewId} has no button ${input.actionId}`);
  const suggested = d.standin.view(input.viewId)?.suggestions;
  const values = buildStateValues(view, input.values ?? {}, suggested, false);
  const action = buttonAction(found, input.actionId, d.nowMs());
  return d.send({
    payload: viewClick(d, input.userId, input.viewId, { ...view, state: { values } }, action),
  });
}

/** A click in view `viewId` as Slack sends it: block_actions with the view and a fresh trigger_id. */
export function viewClick(d: Acting, userId: string, viewId: string, view: Obj, action: Obj): Obj {
  return {
    type: 'block_actions',
    ...d.actor(userId),
    container: { type: 'view', view_id: viewId },
    trigger_id: d.standin.issueTriggerId(userId),
    view,
    actions: [action],
  };
}

export async function closeView(d: Acting, input: CloseInput): Promise<Delivery> {
  const view = openView(d.standin, input.userId, input.viewId);
  const stack = d.standin.openViews(input.userId);
  if (stack.at(-1)?.id !== input.viewId)
    throw new StandinError('view_not_on_top', `view ${input.viewId} is under another view`);
  if (view.notify_on_close !== true) {
    throw new StandinError(
      'notify_on_close_not_set',
      `view ${input.viewId} has no notify_on_close: Slack sends nothing`,
    );
  }
  const delivery = await d.send({
    payload: {
      type: 'view_closed',
      ...d.viewActor(input.userId),
      view,
      is_cleared: input.clearStack === true && stack.length > 1,
    },
  });
  for (const id of input.clearStack ? stack.map((v) => v.id) : [input.viewId]) d.standin.settleClose(id);
  return delivery;
}
