// Public surface of the MCP side; the rest of the bot imports from here, never from the SDK.
export { McpHub, type McpHubOptions } from './hub.js';
export { summaryResult, type SummaryResult } from './results.js';
export {
  McpClientError,
  type ElicitationContext,
  type ElicitationMode,
  type ElicitationSink,
  type IncomingElicitation,
  type McpClientErrorCode,
  type McpLogger,
  type McpServerSpec,
  type McpTransportSpec,
  type ProgressUpdate,
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
