// The `cancel` a gateway call's port is given (src/mcp/endpoint.ts), which the API calls when a host's cancel
// for it landed on another replica: it ends the call exactly as the host's cancel reaching this replica does
// (the handler's signal aborted, the host's request closed without an answer), and a later cancel of either
// kind changes nothing more.
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointPorts } from '../../src/mcp/endpoint.js';
import { deferred } from '../support/deferred.js';
import { postJsonRpc } from '../support/json-rpc.js';
import { endpointPorts, endpointServers } from '../support/mcp-endpoint.js';

const TOKEN = 'tok-gw';

/** Ports whose one gateway tool runs until its signal aborts, handing the test the call's `cancel`. */
function gatewayPorts() {
  const started = deferred<{ cancel: () => void; signal: AbortSignal }>();
  const ports = endpointPorts(TOKEN, {
    gatewayTools: () => Promise.resolve([{ server: 'deploy', tool: 'run', inputSchema: { type: 'object' } }]),
    callGatewayTool: (_client, _call, { cancel, signal }) => {
      started.resolve({ cancel, signal });
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    },
  });
  return { ports, started: started.promise };
}

const endpoint = endpointServers();
afterEach(() => endpoint.close());
const serve = (ports: EndpointPorts): Promise<URL> => endpoint.serve(ports);

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
