// A 2026-07-28 server's rounds through the bot's other entry points, run the way /mcp run runs them: a call
// made through the HTTP API (POST /api/v1/calls) and a gateway tool called through the bot's MCP endpoint.
// The MRTR fixture (test/fixtures/mrtr-server.ts) is its own process; each round's question is a card in
// Slack's stand-in, and the retry's answer is the call's result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, cardWith, type Api } from './api-support.js';
import { inputLabelled, openForm } from './harness.js';
import { startMrtrHarness, type MrtrHarness } from './mrtr-harness.js';

const TOKEN = 'api-token-mrtr-entry-0123456789';

describe('2026 rounds through the calls API and the MCP endpoint’s gateway', () => {
  let h: MrtrHarness;
  let api: Api;
  let host: Client | undefined;
  beforeAll(async () => {
    h = await startMrtrHarness({
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      moreServers: (url) => ({ gwm: { url, gateway: true } }),
      config: { api: { gateway: { as: 'U2' } } },
    });
    api = apiOf(h, TOKEN);
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await h.close();
  });

  it(
    'runs a two-round tool called through POST /api/v1/calls: a card per round, then the call completes with the result',
    { timeout: 60_000 },
    async () => {
      const created = await api('POST', '/calls', {
        body: { server: 'modern', tool: 'two_rounds', arguments: {}, as: { user: 'U1' } },
      });
      expect(created.status).toBe(202);
      const id = String(created.body.id);
      const nameCard = await cardWith(h, 'Your name?');
      const nameForm = await openForm(h, 'U1', nameCard);
      const name = { [inputLabelled(h, nameForm, 'Name')]: 'Ada' };
      await h.driver.submitView({ userId: 'U1', viewId: nameForm, values: name });
      const confirmCard = await cardWith(h, 'Send a greeting to Ada?');
      const confirmForm = await openForm(h, 'U1', confirmCard);
      const ok = { [inputLabelled(h, confirmForm, 'Send it?')]: 'Yes' };
      await h.driver.submitView({ userId: 'U1', viewId: confirmForm, values: ok });
      const ended = await api('GET', `/calls/${id}?wait=30`);
      expect(ended.body).toMatchObject({
        id,
        status: 'completed',
        result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
      });
      expect(ended.body.questions).toHaveLength(2);
    },
  );

  it('runs a gateway tool of the 2026 server for the configured person, and returns the answer to the declined round', async () => {
    host = new Client({ name: 'headless-agent', version: '1.0.0' });
    const endpoint = new URL(`http://127.0.0.1:${h.replicas[0]?.port}/mcp`);
    const headers = { authorization: `Bearer ${TOKEN}` };
    await host.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
    const called = host.callTool({ name: 'gwm__two_rounds', arguments: {} });
    const channel = h.standin.dmChannelOf('U2');
    const asked = (m: { blocks?: unknown }) => JSON.stringify(m.blocks ?? '').includes('Your name?');
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === channel && asked(c.args),
      30_000,
    );
    const ts = h.standin.messagesIn(channel).find(asked)?.ts ?? '';
    await h.driver.clickButton({ userId: 'U2', channel, ts, actionId: 'elicit_decline' });
    const result = await called;
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'name declined in round 1' }]);
  });
});
