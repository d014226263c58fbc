// The process's outbound HTTP: one `fetch` for the Slack Web API client and the MCP transports.
export { BufferedResponse } from './buffered-response.js';
export {
  createHttpFetch,
  EXCHANGE_IDLE_MS,
  ExchangeIdleError,
  httpFetch,
  type Fetch,
  type HttpFetchOptions,
} from './fetch.js';
