// Public surface of the MCP side; the rest of the bot imports from here, never from the SDK.
export { McpHub, type McpHubOptions } from './hub.js';
export { wholeResult } from './results.js';
export type { RefusedTool, ToolListing } from './tool-listing.js';
export { roundAnswersOf } from './continuation.js';
export { answerAsSent } from './elicitation.js';
export {
  McpClientError,
  type DurableRound,
  type DurableRounds,
  type ElicitationContext,
  type ElicitationMode,
  type ElicitationSink,
  type IncomingElicitation,
  type McpClientErrorCode,
  type McpLogger,
  type McpServerSpec,
  type McpTransportSpec,
  type ProgressUpdate,
  type ResumedRound,
  type ServerInfo,
  type ServerStatus,
  type ToolCall,
  type ToolResult,
  type ToolSummary,
  type UrlRequired,
} from './types.js';
export {
  ASK_HUMAN,
  EndpointRefusal,
  GATEWAY_SEPARATOR,
  mcpEndpoint,
  type EndpointCall,
  type EndpointPorts,
  type GatewayTool,
  type HumanAnswer,
} from './endpoint.js';
export {
  CALLBACK_PATH,
  SignInError,
  type CallbackParams,
  type Connection,
  type Connections,
  type Person,
  type SignInErrorCode,
  type SignInNeeded,
  type SignInPrompter,
  type SignInReason,
} from './auth/types.js';
export {
  exchangeCode,
  MAX_SIGN_INS,
  MAX_STEP_UPS,
  needsSignIn,
  type McpAuth,
  type SessionAuth,
} from './auth/sign-in.js';
export {
  memoryStorage,
  SignInProvider,
  type SignInProviderOptions,
  type SignInRecord,
  type SignInStorage,
} from './auth/provider.js';
export { deploymentAuth, type DeploymentGrant } from './auth/deployment.js';
export {
  EnterpriseProvider,
  ExchangeRefusedError,
  type EnterpriseGrant,
  type EnterpriseIdp,
} from './auth/enterprise.js';
export { EnterpriseSession, EnterpriseSignIns, type EnterpriseServer } from './auth/enterprise-session.js';
export { IdpSignIn, type SignInIdp } from './auth/idp.js';
export { VaultConnections, type VaultConnectionsDeps } from './auth/connections.js';
export { PersonGrants, type PersonSignInServer } from './auth/grants.js';
export { DEFAULT_SIGN_IN_WAIT_MS, PersonAuth, type PersonAuthDeps } from './auth/person-auth.js';
export { Sealer } from './auth/sealed.js';
export { STATE_TTL_SEC, TokenVault } from './auth/vault.js';
export { SignInWakes } from './auth/wakes.js';
