// Block actions: a card's buttons, a long form's Back, and a -32042 answer's Retry and link buttons.
import type { App, BlockButtonAction } from '@slack/bolt';
import {
  CONNECT_ACTION,
  DECLINE_ACTION,
  DISCONNECT_ACTION,
  LINK_ACTION_PREFIX,
  PAGE_BACK_ACTION,
  RESPOND_ACTION,
  RETRY_ACTION,
  URL_CANCEL_ACTION,
  URL_CONSENT_ACTION,
  URL_RETRY_ACTION,
} from '../../../../blocks/index.js';
import type { ListenerDeps } from '../deps.js';
import { disconnect } from './disconnect.js';
import { pageBack } from './page-back.js';
import { cancelUrl, consentToUrl, decline, openForm } from './question-buttons.js';
import { ackLinkClick, retryCall } from './retry.js';

/** The action_ids registered below (and the link buttons' prefix); every other click is acked by the catch-all. */
export const TAKEN_ACTIONS = [
  RESPOND_ACTION,
  DECLINE_ACTION,
  URL_CONSENT_ACTION,
  URL_RETRY_ACTION,
  URL_CANCEL_ACTION,
  PAGE_BACK_ACTION,
  RETRY_ACTION,
  DISCONNECT_ACTION,
  CONNECT_ACTION,
];
export const TAKEN_ACTION_PREFIXES = [LINK_ACTION_PREFIX];

export function register(app: App, deps: ListenerDeps): void {
  app.action<BlockButtonAction>(RESPOND_ACTION, async (args) => openForm(args, deps));
  app.action<BlockButtonAction>(DECLINE_ACTION, async (args) => decline(args, deps));
  app.action<BlockButtonAction>(URL_CONSENT_ACTION, async (args) => consentToUrl(args, deps));
  app.action<BlockButtonAction>(URL_RETRY_ACTION, async (args) => consentToUrl(args, deps));
  app.action<BlockButtonAction>(URL_CANCEL_ACTION, async (args) => cancelUrl(args, deps));
  app.action<BlockButtonAction>(PAGE_BACK_ACTION, async (args) => pageBack(args, deps));
  app.action<BlockButtonAction>(RETRY_ACTION, async (args) => retryCall(args, deps));
  app.action(new RegExp(`^${LINK_ACTION_PREFIX}\\d+$`), ackLinkClick);
  app.action<BlockButtonAction>(DISCONNECT_ACTION, async (args) => disconnect(args, deps));
  // The Connect button opens the authorization page in the browser; its click only needs an ack.
  app.action(CONNECT_ACTION, ackLinkClick);
}
