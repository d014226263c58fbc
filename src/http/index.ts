// The process's outbound HTTP: one `fetch` for the Slack Web API client and the MCP transports.
export { createHttpFetch, httpFetch, type Fetch } from './fetch.js';
