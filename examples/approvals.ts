// Example MCP server "approvals": a deploy-like tool that asks for confirmation with a reason and reports
// what happened (deployed, refused, or not started because nobody answered).
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runIfMain, SERVER_WAIT_MS, text } from './shared.js';

const CONFIRM = {
  type: 'object',
  properties: {
    confirm: { type: 'boolean', title: 'Deploy now?' },
    reason: { type: 'string', title: 'Reason', description: 'Kept in the audit log', minLength: 5 },
  },
  required: ['confirm', 'reason'],
};

export function createApprovalsServer(): McpServer {
  const server = new McpServer({ name: 'elicit-relay-example-approvals', version: '1.0.0' });
  server.registerTool(
    'deploy',
    {
      description: 'Deploys a service after a person confirms with a reason',
      inputSchema: {
        service: z.string().default('web'),
        env: z.enum(['staging', 'production']).default('production'),
      },
    },
    async ({ service, env }) => {
      const message = `Deploy *${service}* to *${env}*? This restarts its pods.`;
      try {
        const result = await server.server.elicitInput(
          { mode: 'form', message, requestedSchema: CONFIRM as never },
          { timeout: SERVER_WAIT_MS },
        );
        if (result.action === 'accept' && result.content?.confirm === true) {
          return text(`Deployed ${service} to ${env}. Reason: ${String(result.content.reason)}`);
        }
        if (result.action === 'accept')
          return text(`Not deployed: the approver said no (${String(result.content?.reason)}).`);
        if (result.action === 'decline') return text(`Not deployed: the approver declined.`);
        return text('Not deployed: nobody answered in time, or the form was closed.');
      } catch (error) {
        return text(error instanceof Error ? error.message : String(error), true);
      }
    },
  );
  return server;
}

await runIfMain(import.meta.url, createApprovalsServer);
