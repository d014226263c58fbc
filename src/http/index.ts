// The process's HTTP plumbing: one `fetch` for the Slack Web API client and the MCP transports, and the reading
// of the JSON endpoints' inbound request bodies, and a Retry-After header's wait.
export { BufferedResponse } from './buffered-response.js';
export {
  createHttpFetch,
  EXCHANGE_IDLE_MS,
  ExchangeIdleError,
  httpFetch,
  type Fetch,
  type HttpFetchOptions,
} from './fetch.js';
export { discardBody, MAX_BODY_BYTES, readBodyBytes, utf8Text } from './inbound-body.js';
export { retryAfterMs } from './retry-after.js';
