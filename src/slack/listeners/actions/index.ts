// Block actions: a card's buttons, a long form's Back, a -32042 answer's Retry and link buttons, and a run's
// Cancel.
import {
  CANCEL_RUN_ACTION,
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
import type { InteractionRoutes } from '../routes.js';
import { disconnect } from './disconnect.js';
import { pageBack } from './page-back.js';
import { cancelUrl, consentToUrl, decline, openForm } from './question-buttons.js';
import { cancelRun } from './cancel-run.js';
import { ackLinkClick, retryCall } from './retry.js';

export function register(routes: InteractionRoutes, deps: ListenerDeps): void {
  routes.action(RESPOND_ACTION, async (args) => openForm(args, deps));
  routes.action(DECLINE_ACTION, async (args) => decline(args, deps));
  routes.action(URL_CONSENT_ACTION, async (args) => consentToUrl(args, deps));
  routes.action(URL_RETRY_ACTION, async (args) => consentToUrl(args, deps));
  routes.action(URL_CANCEL_ACTION, async (args) => cancelUrl(args, deps));
  routes.action(PAGE_BACK_ACTION, async (args) => pageBack(args, deps));
  routes.action(RETRY_ACTION, async (args) => retryCall(args, deps));
  routes.action(CANCEL_RUN_ACTION, async (args) => cancelRun(args, deps));
  routes.action(new RegExp(`^${LINK_ACTION_PREFIX}\\d+$`), ackLinkClick);
  routes.action(DISCONNECT_ACTION, async (args) => disconnect(args, deps));
  // The Connect button opens the authorization page in the browser; its click only needs an ack.
  routes.action(CONNECT_ACTION, ackLinkClick);
}
