// A 2026-07-28 server over stdio (SDK 2.x serveStdio), for test/mcp/mrtr-lost-session.test.ts: a child
// process the test can kill while a round's question is open. Its one tool, `greet`, asks a name in one round
// (the question says which process asked, so the test knows whom to kill) and greets it, saying which process
// answered. The round's requestState is HMAC-sealed with MRTR_STATE_KEY (hex) when given: every process of
// the server then accepts it, as a stateless 2026 deployment does; without it each process has its own key,
// so another process refuses the state (-32602).
//   node --import tsx test/mcp/mrtr-stdio-server.ts
import { randomBytes } from 'node:crypto';
import {
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const NAME_SCHEMA = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const, title: 'Name' } },
  required: ['name'],
};

const sharedKey = process.env['MRTR_STATE_KEY'];
const codec = createRequestStateCodec<{ asker: number }>({
  key: sharedKey === undefined ? randomBytes(32) : Buffer.from(sharedKey, 'hex'),
});

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

serveStdio(() => {
  const server = new McpServer(
    { name: 'mrtr-stdio', version: '1.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: (state, ctx) => codec.verify(state, ctx) } },
  );
  server.registerTool(
    'greet',
    { description: 'Asks a name, then greets it' },
    async (ctx): Promise<CallToolResult | InputRequiredResult> => {
      const state = ctx.mcpReq.requestState<{ asker: number }>();
      if (state === undefined) {
        const name = inputRequired.elicit({
          message: `Your name? (pid ${process.pid})`,
          requestedSchema: NAME_SCHEMA,
        });
        return inputRequired({
          inputRequests: { name },
          requestState: await codec.mint({ asker: process.pid }),
        });
      }
      const answer = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'name');
      const who = answer === undefined ? 'nobody' : answer.name;
      return text(`Hello, ${who}! Asked by pid ${state.asker}, answered by pid ${process.pid}`);
    },
  );
  return server;
});
