// Example MCP server "slow": the sandbox gives it a short elicitation timeout, so leaving its question
// unanswered shows a timeout (the card updates and the tool receives `cancel`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { askAndReport, runIfMain } from './shared.js';

const QUESTION = {
  type: 'object',
  properties: { answer: { type: 'string', title: 'Answer (or let it time out)' } },
  required: ['answer'],
};

export function createSlowServer(): McpServer {
  const server = new McpServer({ name: 'elicit-relay-example-slow', version: '1.0.0' });
  server.registerTool('ask', { description: 'Asks one question that expires quickly' }, () =>
    askAndReport(server, 'This question expires soon: wait to see the timeout.', QUESTION),
  );
  return server;
}

await runIfMain(import.meta.url, createSlowServer);
