// The bot's own MCP endpoint over real HTTP with the SDK's client: bearer tokens, ask_human's answer as
// structuredContent, progress while a person takes their time, gateway tools by `<server>__<tool>`, refusals
// as tool errors, and a host that goes away withdrawing its question. The ports are recorded here; the
// system test (test/system/api-mcp-endpoint.test.ts) runs them against Slack's stand-in and Redis.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointRefusal, type EndpointPorts, type HumanAnswer } from '../../src/mcp/endpoint.js';
import { callIdOf } from '../../src/mcp/host-calls.js';
import { postJsonRpc } from '../support/json-rpc.js';
import { deferred } from '../support/deferred.js';
import { endpointPorts, endpointServers } from '../support/mcp-endpoint.js';

const TOKEN = 'tok-ci';
/** An ask_human call the recording ports hold until the test answers it. */
const DEPLOY = {
  name: 'ask_human',
  arguments: { message: 'Deploy?', requestedSchema: { type: 'object', properties: {} }, to: { user: 'U1' } },
};

/** Ports whose asks wait until the test answers them. */
function recordingPorts() {
  const asks: {
    client: string;
    args: Record<string, unknown>;
    callId: string;
    signal: AbortSignal;
    answer: (a: HumanAnswer) => void;
  }[] = [];
  /** Cancels this replica had no call for, as (client, call id within the host's session). */
  const elsewhere: [string, string][] = [];
  let onElsewhere: () => void = () => undefined;
  let onAsk: () => void = () => undefined;
  const ports = endpointPorts(TOKEN, {
    askHumanSchema: {
      type: 'object',
      properties: {
        message: { type: 'string' },
        requestedSchema: { type: 'object' },
        to: { type: 'object' },
      },
      required: ['message', 'requestedSchema', 'to'],
    },
    askHuman: (client, args, { callId, signal }) => {
      if (args.to === 'nobody')
        return Promise.reject(new EndpointRefusal('invalid_request', '/to is not an object'));
      return new Promise((answer) => {
        asks.push({ client, args, callId, signal, answer });
        onAsk();
      });
    },
    cancelElsewhere: (client, requestId) => {
      elsewhere.push([client, requestId]);
      onElsewhere();
      return Promise.resolve();
    },
    gatewayTools: () =>
      Promise.resolve([
        {
          server: 'github',
          tool: 'create_issue',
          description: 'Opens an issue',
          inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
        },
      ]),
    callGatewayTool: (client, call, { onProgress }) => {
      onProgress('asked Mei in Slack');
      return Promise.resolve({
        isError: false,
        text: `${client} ran ${call.server}/${call.tool} ${JSON.stringify(call.args)}`,
        structured: { issue: 7 },
      });
    },
    keepaliveMs: 20,
  });
  const nextAsk = () => new Promise<void>((resolve) => (onAsk = resolve));
  const nextElsewhere = () => new Promise<void>((resolve) => (onElsewhere = resolve));
  return { ports, asks, nextAsk, elsewhere, nextElsewhere };
}

const endpoint = endpointServers();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await endpoint.close();
});
const serve = (ports: EndpointPorts): Promise<URL> => endpoint.serve(ports);

async function connect(url: URL, token = TOKEN): Promise<Client> {
  const client = new Client({ name: 'agent-host', version: '1.0.0' });
  clients.push(client);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** One JSON-RPC message POSTed with the token, as a host's transport would. */
const postMessage = (url: URL, message: object) => postJsonRpc(url, TOKEN, message);

describe('the MCP endpoint', () => {
  it('refuses a request without a valid bearer token with 401, changing nothing', async () => {
    const { ports, asks } = recordingPorts();
    const url = await serve(ports);
    for (const authorization of [undefined, 'Bearer wrong', TOKEN]) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    await expect(connect(url, 'wrong')).rejects.toThrow();
    expect(asks).toEqual([]);
  });

  it('refuses a body over 1 MB with 413 before any tool runs', async () => {
    const { ports, asks } = recordingPorts();
    const url = await serve(ports);
    const message = 'x'.repeat(1024 * 1024);
    const res = await postMessage(url, {
      id: 1,
      method: 'tools/call',
      params: { name: 'ask_human', arguments: { message, requestedSchema: {}, to: { user: 'U1' } } },
    });
    expect(res.status).toBe(413);
    expect(asks).toEqual([]);
  });

  it('lists ask_human with its input and output schemas, and each gateway tool as server__tool', async () => {
    const { ports } = recordingPorts();
    const client = await connect(await serve(ports));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ask_human', 'github__create_issue']);
    expect(tools[0]).toMatchObject({
      inputSchema: { required: ['message', 'requestedSchema', 'to'] },
      outputSchema: { required: ['action'] },
    });
    expect(tools[1]).toMatchObject({
      description: 'Opens an issue',
      inputSchema: { properties: { title: { type: 'string' } } },
    });
  });

  it("answers ask_human with the person's outcome as structuredContent, sending progress while they think", async () => {
    const { ports, asks, nextAsk } = recordingPorts();
    const client = await connect(await serve(ports));
    const progress: number[] = [];
    const { promise: progressed, resolve: twoProgress } = deferred();
    const asked = nextAsk();
    const result = client.callTool(DEPLOY, undefined, {
      onprogress: (p) => {
        progress.push(p.progress);
        if (progress.length === 2) twoProgress();
      },
      resetTimeoutOnProgress: true,
    });
    await asked;
    await progressed;
    expect(asks[0]).toMatchObject({ client: 'ci', args: { message: 'Deploy?', to: { user: 'U1' } } });
    asks[0]!.answer({ action: 'accept', content: { approve: true } });
    const answered = await result;
    expect(answered.structuredContent).toEqual({ action: 'accept', content: { approve: true } });
    expect(answered.isError).toBeFalsy();
    expect(progress.slice(0, 2)).toEqual([1, 2]);
  });

  it('returns what the API would refuse as a tool error naming the problem', async () => {
    const { ports } = recordingPorts();
    const client = await connect(await serve(ports));
    const result = await client.callTool({
      name: 'ask_human',
      arguments: { message: 'x', requestedSchema: {}, to: 'nobody' },
    });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'invalid_request: /to is not an object' }],
    });
  });

  it("runs a gateway tool for the token's client, passing its progress on", async () => {
    const { ports } = recordingPorts();
    const client = await connect(await serve(ports));
    const messages: (string | undefined)[] = [];
    const result = await client.callTool(
      { name: 'github__create_issue', arguments: { title: 'Bug' } },
      undefined,
      {
        onprogress: (p) => messages.push(p.message),
      },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'ci ran github/create_issue {"title":"Bug"}' }]);
    expect(result.structuredContent).toEqual({ issue: 7 });
    expect(messages).toContain('asked Mei in Slack');
  });

  it('answers an unknown tool with -32602', async () => {
    const { ports } = recordingPorts();
    const client = await connect(await serve(ports));
    await expect(client.callTool({ name: 'github__delete_repo', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('aborts the wait when the agent host cancels its request', async () => {
    const { ports, asks, nextAsk, elsewhere } = recordingPorts();
    const client = await connect(await serve(ports));
    const controller = new AbortController();
    const asked = nextAsk();
    const result = client.callTool(DEPLOY, undefined, { signal: controller.signal });
    await asked;
    const aborted = new Promise<void>((resolve) =>
      asks[0]!.signal.addEventListener('abort', () => resolve()),
    );
    controller.abort();
    await expect(result).rejects.toThrow();
    await aborted;
    expect(asks[0]!.signal.aborted).toBe(true);
    expect(elsewhere).toEqual([]);
  });

  it("passes a cancel for a call this replica is not running on, with the client and the host's id", async () => {
    const { ports, asks, elsewhere, nextElsewhere } = recordingPorts();
    const url = await serve(ports);
    const cancelled = nextElsewhere();
    const res = await postMessage(url, {
      method: 'notifications/cancelled',
      params: { requestId: 42, reason: 'the agent gave up' },
    });
    expect(res.status).toBe(202);
    await cancelled;
    expect(elsewhere).toEqual([['ci', callIdOf(undefined, 42)]]);
    expect(asks).toEqual([]);
  });

  it("cancels only the cancelling host's call when two hosts of one client use the same request id", async () => {
    const { ports, asks, nextAsk, elsewhere } = recordingPorts();
    const url = await serve(ports);
    const [hostA, hostB] = [await connect(url), await connect(url)];
    const controller = new AbortController();
    let asked = nextAsk();
    const callA = hostA.callTool(DEPLOY, undefined, { signal: controller.signal });
    await asked;
    asked = nextAsk();
    void hostB.callTool(DEPLOY).catch(() => undefined);
    await asked;
    const [askA, askB] = asks;
    // Both hosts number their requests alike; only their sessions tell the calls apart.
    const requestIdOf = (callId = ''): string | undefined => /,"([^"]*)"\]$/.exec(callId)?.[1];
    expect(requestIdOf(askA?.callId)).toBe(requestIdOf(askB?.callId));
    expect(askA?.callId).not.toBe(askB?.callId);
    controller.abort();
    await expect(callA).rejects.toThrow();
    await expect.poll(() => askA?.signal.aborted).toBe(true);
    expect(askB?.signal.aborted).toBe(false);
    expect(elsewhere).toEqual([]);
  });

  it('cancels neither of two calls in flight that hosts without a session gave one id', async () => {
    const { ports, asks, nextAsk, elsewhere } = recordingPorts();
    const url = await serve(ports);
    const call = { id: 7, method: 'tools/call', params: DEPLOY };
    for (let i = 0; i < 2; i++) {
      const asked = nextAsk();
      void postMessage(url, call).catch(() => undefined);
      await asked;
    }
    const res = await postMessage(url, { method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(res.status).toBe(202);
    expect(asks.map((a) => a.signal.aborted)).toEqual([false, false]);
    expect(elsewhere).toEqual([]);
    for (const ask of asks) ask.answer({ action: 'decline' });
  });
});
