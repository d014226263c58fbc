// PRODUCT "Automations contract", its command line and MCP endpoint, read as an outside acceptance test reads
// them, against one real replica (real Redis under its own prefix, deleted after; the Slack stand-in):
// `elicit-relay ask` as a child process (targets C… and S…, inline --schema, exit codes 0/1/3/4, stdout one JSON
// line) and POST /mcp through the MCP SDK's client (ask_human's schema, decline and timeout as structuredContent,
// a wrong token). What cli.test/client.test and api-mcp-endpoint.test already check exactly is not repeated.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardWith } from '../system/api-support.js';
import { freePort, runCli, type CliRun } from '../system/child.js';
import { inputLabelled, openForm, startHarness, type Harness } from '../system/harness.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const TOKEN = 'audit-cli-token-0123456789';
const NARROW = 'audit-cli-narrow-0123456789';

describe('the automations contract’s command line and MCP endpoint, read from outside', () => {
  let h: Harness;
  let url: string;
  const hosts: Client[] = [];
  beforeAll(async () => {
    h = await startHarness({
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      config: { api: { clients: { narrow: { token: NARROW, targets: ['C0AUDIT'] } } } },
      workspace: {
        channels: { C0AUDIT: ['U2', 'U0STANDINBOT'] },
        usergroups: { S0AUDIT: ['U4', 'U5'] },
      },
    });
    url = `http://127.0.0.1:${h.relay.port}`;
  });
  afterAll(async () => {
    await Promise.all(hosts.map((c) => c.close()));
    await h.close();
    await deleteUnder(h.prefix);
  });

  const ask = (args: string[], token = TOKEN): CliRun =>
    runCli({ ELICIT_RELAY_URL: url, ELICIT_RELAY_API_TOKEN: token }, ['ask', ...args]);
  /** The single line the command printed on stdout, parsed. */
  const printed = (run: CliRun): unknown => {
    expect(run.stdout()).toMatch(/^[^\n]+\n$/);
    return JSON.parse(run.stdout());
  };

  it(
    'asks a channel (--to C…) with an inline --schema: a member answers, exit 0, the typed content',
    { timeout: 60_000 },
    async () => {
      const schema = JSON.stringify({
        type: 'object',
        properties: { count: { type: 'integer', title: 'Count' } },
        required: ['count'],
      });
      const run = ask(['--message', 'Audit channel ask?', '--to', 'C0AUDIT', '--schema', schema]);
      const card = await cardWith(h, 'Audit channel ask?');
      expect(card.channel).toBe('C0AUDIT');
      const viewId = await openForm(h, 'U2', card);
      const values = { [inputLabelled(h, viewId, 'Count')]: '4' };
      expect((await h.driver.submitView({ userId: 'U2', viewId, values })).status).toBe(200);
      expect((await run.done).code).toBe(0);
      expect(printed(run)).toEqual({ action: 'accept', content: { count: 4 } });
    },
  );

  it(
    'asks a user group (--to S…): a member declines, exit 1, {"action":"decline"}',
    { timeout: 60_000 },
    async () => {
      const run = ask(['--message', 'Audit group ask?', '--to', 'S0AUDIT']);
      const card = await cardWith(h, 'Audit group ask?');
      await h.driver.clickButton({ userId: 'U5', ...card, actionId: 'elicit_decline' });
      expect((await run.done).code).toBe(1);
      expect(printed(run)).toEqual({ action: 'decline' });
    },
  );

  it('exits 3 with {"action":"cancel"} when the person closes the form', { timeout: 60_000 }, async () => {
    const run = ask(['--message', 'Audit close?', '--to', 'U1']);
    const viewId = await openForm(h, 'U1', await cardWith(h, 'Audit close?'));
    expect((await h.driver.closeView({ userId: 'U1', viewId })).status).toBe(200);
    expect((await run.done).code).toBe(3);
    expect(printed(run)).toEqual({ action: 'cancel' });
  });

  it(
    'exits 4 on a refusal other than wrong use (403: a target the client may not ask), printing nothing on stdout',
    { timeout: 60_000 },
    async () => {
      const run = ask(['--message', 'Audit forbidden?', '--to', 'U1'], NARROW);
      const { code, stderr } = await run.done;
      expect(code).toBe(4);
      expect(stderr).toMatch(/403 forbidden/);
      expect(run.stdout()).toBe('');
    },
  );

  it('exits 4 when the bot cannot be reached, printing nothing on stdout', { timeout: 60_000 }, async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const run = runCli({}, ['ask', '--message', 'Anyone?', '--to', 'U1', '--url', nobody, '--token', TOKEN]);
    expect((await run.done).code).toBe(4);
    expect(run.stdout()).toBe('');
  });

  async function agentHost(): Promise<Client> {
    const host = new Client({ name: 'audit-agent', version: '1.0.0' });
    hosts.push(host);
    const headers = { authorization: `Bearer ${TOKEN}` };
    await host.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
    );
    return host;
  }

  it('refuses an MCP host with a wrong token: 401 with the API error shape', async () => {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer wrong-token',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect([res.status, await res.json()]).toEqual([
      401,
      { error: { code: 'unauthorized', message: expect.any(String) as string } },
    ]);
  });

  it('lists ask_human taking message, requestedSchema, to and an optional timeout', async () => {
    const { tools } = await (await agentHost()).listTools();
    const askHuman = tools.find((t) => t.name === 'ask_human');
    expect(Object.keys(askHuman?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['message', 'requestedSchema', 'to', 'timeout']),
    );
    expect([...(askHuman?.inputSchema.required ?? [])].sort()).toEqual(['message', 'requestedSchema', 'to']);
  });

  it('answers ask_human with structuredContent {action: decline} when the person declines', async () => {
    const host = await agentHost();
    const asked = host.callTool({
      name: 'ask_human',
      arguments: {
        message: 'Audit MCP decline?',
        requestedSchema: { type: 'object', properties: {} },
        to: { user: 'U3' },
      },
    });
    const card = await cardWith(h, 'Audit MCP decline?');
    await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' });
    const result = await asked;
    expect([result.isError ?? false, result.structuredContent]).toEqual([false, { action: 'decline' }]);
  });

  it('answers ask_human as an MCP server would be answered: a cleared optional field gets its default', async () => {
    const requestedSchema = {
      type: 'object',
      properties: {
        why: { type: 'string', title: 'Why' },
        size: { type: 'integer', title: 'Size', default: 3 },
      },
      required: ['why'],
    };
    const asked = (await agentHost()).callTool({
      name: 'ask_human',
      arguments: { message: 'Audit MCP defaults?', requestedSchema, to: { user: 'U3' } },
    });
    const viewId = await openForm(h, 'U3', await cardWith(h, 'Audit MCP defaults?'));
    const values = { [inputLabelled(h, viewId, 'Why')]: 'load' };
    expect((await h.driver.submitView({ userId: 'U3', viewId, values })).status).toBe(200);
    const result = await asked;
    expect(result.structuredContent).toEqual({ action: 'accept', content: { why: 'load', size: 3 } });
  });

  it(
    'answers ask_human with structuredContent {action: cancel} once its timeout passes',
    { timeout: 60_000 },
    async () => {
      const host = await agentHost();
      const result = await host.callTool({
        name: 'ask_human',
        arguments: {
          message: 'Audit MCP timeout?',
          requestedSchema: { type: 'object', properties: {} },
          to: { user: 'U3' },
          timeout: '2s',
        },
      });
      expect([result.isError ?? false, result.structuredContent]).toEqual([false, { action: 'cancel' }]);
    },
  );
});
