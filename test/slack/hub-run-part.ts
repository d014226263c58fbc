// The Slack part (`slack-part.ts`) against Slack's stand-in, its `/mcp` served by the bot's real MCP hub with one
// server, `fixture`, whose every session is linked over an in-memory transport to a fresh server from `server()`
// (the SDK's own, so what it lists reaches the hub as it sent it): for tests that drive `/mcp run` through Bolt
// and see what the person is shown.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpHub } from '../../src/mcp/hub.js';
import { mcpToolRunner } from '../../src/relay/sources/mcp.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { inMemorySpec, recordingSink } from '../mcp/support.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

/** How long a test waits for Slack's stand-in to see the call it expects, in ms. */
const SLACK_CALL_WAIT_MS = 10_000;

export interface HubRunPart {
  standin: SlackStandin;
  part: RunningSlackPart;
  /** The view that replaced `userId`'s loading view once `/mcp run fixture <tool>` ran: its text and blocks' types. */
  runFormOf(userId: string, tool: string): Promise<{ text: string; types: string[] }>;
  /**
   * Types `value` into the first input of `userId`'s open arguments form and submits it; resolves once the run's
   * result (`ran <tool>`) is posted.
   */
  submitFirstInput(userId: string, tool: string, value: string): Promise<void>;
  /** Closes the Slack part, the hub and the stand-in, in that order. */
  close(): Promise<void>;
}

/** Starts the stand-in (bot token `botToken`), the hub linked to `server()` and the Slack part over both. */
export async function startHubRunPart(input: {
  botToken: string;
  server: () => Server;
}): Promise<HubRunPart> {
  const standin = await startSlackStandin({ botToken: input.botToken });
  const hub = new McpHub({
    servers: [inMemorySpec('fixture')],
    // These tests ask no question: a server's elicitation would be cancelled.
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      await input.server().connect(side);
      return client;
    },
  });
  hub.start();
  const part = await startSlackPart({ standin, botToken: input.botToken, tools: mcpToolRunner(hub) });
  return {
    standin,
    part,
    runFormOf: async (userId, tool) => {
      await part.driver.slashCommand({ userId, command: '/mcp', text: `run fixture ${tool}` });
      const updated = await standin.waitForCall(
        'views.update',
        (call) => call.ok && standin.openViews(userId).length > 0,
        SLACK_CALL_WAIT_MS,
      );
      const { blocks } = updated.args.view as { blocks: { type: string; text?: { text: string } }[] };
      return { text: blocks.map((b) => b.text?.text ?? '').join('\n'), types: blocks.map((b) => b.type) };
    },
    submitFirstInput: async (userId, tool, value) => {
      const form = standin.openViews(userId).at(-1);
      const blocks = form?.view.blocks as { type: string; block_id: string }[] | undefined;
      const input = blocks?.find((b) => b.type === 'input');
      if (!form || !input) throw new Error(`no arguments form open for ${tool}`);
      await part.driver.submitView({ userId, viewId: form.id, values: { [input.block_id]: value } });
      await standin.waitForCall(
        'chat.postMessage',
        (call) => call.ok && JSON.stringify(call.args).includes(`ran ${tool}`),
        SLACK_CALL_WAIT_MS,
      );
    },
    close: async () => {
      await part.close();
      await hub.close();
      await standin.close();
    },
  };
}
