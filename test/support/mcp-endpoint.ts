// The bot's own MCP endpoint (POST /mcp, src/mcp/endpoint.ts) served over real HTTP on a loopback port, with
// the ports a test records or holds: the harness the endpoint tests share. A test file makes one
// `endpointServers()` and closes it in its afterEach; a test's ports start from `endpointPorts`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mcpEndpoint, type EndpointPorts } from '../../src/mcp/endpoint.js';

/** The API client every accepted bearer token belongs to. */
export const ENDPOINT_CLIENT = 'ci';

export interface EndpointServers {
  /** Serves the endpoint with `ports` on 127.0.0.1 at a free port; its URL (`…/mcp`). */
  serve(ports: EndpointPorts): Promise<URL>;
  /** Closes every server served so far, cutting the connections still open (a held call's, a client's). */
  close(): Promise<void>;
}

export function endpointServers(): EndpointServers {
  const servers: Server[] = [];
  return {
    async serve(ports) {
      const server = createServer(mcpEndpoint(ports));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    },
    async close() {
      for (const s of servers.splice(0)) {
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
      }
    },
  };
}

/**
 * Ports that take `Bearer <token>` (as ENDPOINT_CLIENT) and nothing else, with `ports` in place of the
 * defaults: any object as ask_human's arguments, no gateway tools, warnings dropped, and the ports a test
 * does not give refusing (its calls never reach them).
 */
export function endpointPorts(token: string, ports: Partial<EndpointPorts>): EndpointPorts {
  const unused = (): Promise<never> => Promise.reject(new Error('not used by this test'));
  return {
    authenticate: (header) => (header === `Bearer ${token}` ? ENDPOINT_CLIENT : undefined),
    askHumanSchema: { type: 'object' },
    askHuman: unused,
    cancelElsewhere: unused,
    gatewayTools: () => Promise.resolve([]),
    callGatewayTool: unused,
    logger: { warn: () => undefined },
    ...ports,
  };
}
