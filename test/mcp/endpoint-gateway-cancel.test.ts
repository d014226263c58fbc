// The `cancel` a gateway call's port is given (src/mcp/endpoint.ts), which the API calls when a host's cancel
// for it landed on another replica: it ends the call exactly as the host's cancel reaching this replica does
// (the handler's signal aborted, the host's request closed without an answer), and a later cancel of either
// kind changes nothing more.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpEndpoint, type EndpointPorts } from '../../src/mcp/endpoint.js';
import { deferred } from '../support/deferred.js';
import { postJsonRpc } from '../support/json-rpc.js';

const TOKEN = 'tok-gw';

/** Ports whose one gateway tool runs until its signal aborts, handing the test the call's `cancel`. */
function gatewayPorts() {
  const started = deferred<{ cancel: () => void; signal: AbortSignal }>();
  const ports: EndpointPorts = {
    authenticate: (header) => (header === `Bearer ${TOKEN}` ? 'ci' : undefined),
    askHumanSchema: { type: 'object' },
    askHuman: () => Promise.reject(new Error('not asked here')),
    cancelElsewhere: () => Promise.reject(new Error('the call runs here')),
    gatewayTools: () => Promise.resolve([{ server: 'deploy', tool: 'run', inputSchema: { type: 'object' } }]),
    callGatewayTool: (_client, _call, { cancel, signal }) => {
      started.resolve({ cancel, signal });
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    },
    logger: { warn: () => undefined },
  };
  return { ports, started: started.promise };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

async function serve(ports: EndpointPorts): Promise<URL> {
  const server = createServer(mcpEndpoint(ports));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

const toolsCall = (id: string) => ({
  id,
  method: 'tools/call',
  params: { name: 'deploy__run', arguments: {} },
});

describe("a gateway call's cancel from another replica", () => {
  it("ends the call as the host's cancel on this replica does: aborted, its request closed unanswered", async () => {
    const byHost = gatewayPorts();
    const url = await serve(byHost.ports);
    const hostCall = await postJsonRpc(url, TOKEN, toolsCall('here'));
    const here = await byHost.started;
    const cancelled = await postJsonRpc(url, TOKEN, {
      method: 'notifications/cancelled',
      params: { requestId: 'here' },
    });
    expect(cancelled.status).toBe(202);
    const hostAnswer = await hostCall.text();

    const byPort = gatewayPorts();
    const call = await postJsonRpc(await serve(byPort.ports), TOKEN, toolsCall('elsewhere'));
    const elsewhere = await byPort.started;
    elsewhere.cancel();
    const answer = await call.text();

    expect([here.signal.aborted, elsewhere.signal.aborted]).toEqual([true, true]);
    expect([call.status, answer.includes('"id"')]).toEqual([hostCall.status, hostAnswer.includes('"id"')]);
    expect(answer).not.toContain('"id":"elsewhere"');
    // Cancelled twice (the mark read again, or the host's cancel reaching here too): nothing more happens.
    elsewhere.cancel();
  });
});
