// Small pieces of Slack's request payloads that the driver builds: where a button sits, channel names,
// the text a person typed as Slack sends it, and the Events API envelope around an event.
import { randomBytes } from 'node:crypto';
import { type Obj, isObj } from './blockkit-check.js';
import type { Identity } from './store.js';

/** Where a button sits in a message's or view's blocks; `value` picks one of several with the same action_id. */
export function findButton(
  blocks: unknown,
  actionId: string,
  value?: string,
): { blockId: string; button: Obj } | undefined {
  for (const block of Array.isArray(blocks) ? (blocks as unknown[]) : []) {
    if (!isObj(block)) continue;
    const elements = [
      block.accessory,
      ...(Array.isArray(block.elements) ? (block.elements as unknown[]) : []),
    ];
    const button = elements.find(
      (e): e is Obj =>
        isObj(e) &&
        e.type === 'button' &&
        e.action_id === actionId &&
        (value === undefined || e.value === value),
    );
    if (button) return { blockId: String(block.block_id), button };
  }
  return undefined;
}

export const channelName = (id: string): string => (id.startsWith('D') ? 'directmessage' : id.toLowerCase());

/** The `actions[]` entry Slack sends for a click on `button`. */
export function buttonAction(found: { blockId: string; button: Obj }, actionId: string, nowMs: number): Obj {
  const { button, blockId } = found;
  return {
    action_id: actionId,
    block_id: blockId,
    text: button.text,
    ...(button.value === undefined ? {} : { value: button.value }),
    ...(button.style === undefined ? {} : { style: button.style }),
    type: 'button',
    action_ts: (nowMs / 1000).toFixed(6),
  };
}

/**
 * The Events API JSON envelope (`type: event_callback`) around `event`, as Slack posts it to the Request URL:
 * a fresh `event_id`, `event_time` in Unix seconds and the app's bot in `authorizations`.
 */
export function eventCallback(input: {
  identity: Identity;
  /** api_app_id; default the stand-in's app. */
  appId?: string;
  teamId: string;
  /**
   * The org (E…) whose org-wide installation receives the event: `enterprise_id` and the authorization's org,
   * `is_enterprise_install: true` and no team in the authorization (the token is the org's, not the workspace's).
   */
  enterpriseId?: string;
  token: string;
  nowMs: number;
  event: Obj;
  /** A redelivery keeps the first delivery's id; default a fresh one. */
  eventId?: string;
}): Obj {
  const { identity, teamId, enterpriseId, nowMs, event } = input;
  const appId = input.appId ?? identity.appId;
  const context = { et: event.type, tid: teamId, aid: appId };
  return {
    token: input.token,
    team_id: teamId,
    ...(enterpriseId === undefined ? {} : { enterprise_id: enterpriseId }),
    api_app_id: appId,
    event,
    type: 'event_callback',
    event_id: input.eventId ?? `Ev0${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: Math.floor(nowMs / 1000),
    authorizations: [
      {
        enterprise_id: enterpriseId ?? null,
        team_id: enterpriseId === undefined ? teamId : null,
        user_id: identity.botUserId,
        is_bot: true,
        is_enterprise_install: enterpriseId !== undefined,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(JSON.stringify(context)).toString('base64url')}`,
  };
}

/**
 * Text a person typed as Slack sends it to an app (a slash command's `text`): `&`, `<` and `>` escaped as
 * `&amp;` `&lt;` `&gt;` (Slack's "Formatting text for app surfaces", escaping), `&` first so the others'
 * escapes are not escaped again. The bot has to decode them; a stand-in that sent raw text would hide that.
 */
export function escapedAsSlack(typed: string): string {
  return typed.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
