// Public surface of the Slack stand-in (Web API + response_urls) and the driver that plays Slack's side.
export {
  startSlackStandin,
  type FailOptions,
  type HeldCall,
  type SlackStandin,
  type StandinOptions,
} from './standin.js';
export {
  SlackDriver,
  VERIFICATION_TOKEN,
  type Delivery,
  type DriverOptions,
  type Outgoing,
  type SendOptions,
  type Transport,
} from './driver.js';
export { HttpTransport } from './transports.js';
export {
  OAUTH_CODE_TTL_MS,
  OAuthEndpoint,
  ROTATED_TOKEN_TTL_SEC,
  type OAuthApp,
  type Installer,
  type StandinWorkspace,
} from './oauth.js';
export { OpenIdEndpoint, type SlackPerson } from './openid.js';
export { AUTHORIZE_PATH, CONFIGURATION_PATH, KEYS_PATH } from './openid-pages.js';
export {
  SOCKET_ACK_TIMEOUT_MS,
  SocketModeEndpoint,
  SocketTransport,
  type AppTokenRefusal,
  type EnvelopeType,
} from './socket-mode.js';
export { StandinError, type RecordedCall } from './calls.js';
export type { StandinFile } from './methods-files.js';
export type { EphemeralMessage, Identity, OpenedView, PostedMessage, StandinUser } from './store.js';
export { TRIGGER_TTL_MS } from './store.js';
export type { ResponseTarget } from './responses.js';
export type { FieldAnswer } from './state-values.js';
export { buildStateValues } from './state-values.js';
export {
  validateMessage,
  validateMessageBlocks,
  validateView,
  formatIssue,
  type BlockKitIssue,
} from './blockkit.js';
