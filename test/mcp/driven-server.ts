// A hand-driven MCP server speaking 2025-06-18 over an in-memory pair: the test sends its server→client
// messages itself and decides when (and with what) its one tool `t` answers. For the tests of what a real SDK
// server would never send: reused request ids, results that break the schema.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { deferred } from '../support/deferred.js';

/** What the bot sent back for one server→client request id. */
export interface Reply {
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * The server; `connect` is the hub's connect factory. Its tool `t` answers with what `result` resolves to;
 * meanwhile the test sends server→client messages with `send`. `replies`: each response the bot sent, by id.
 */
export function drivenServer(result: Promise<Record<string, unknown>>) {
  const replies = new Map<string | number, Reply[]>();
  const replied = new Set<() => void>();
  const called = deferred<InMemoryTransport>();
  const connect = async (): Promise<InMemoryTransport> => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    server.onmessage = (message) => void serve(server, message);
    await server.start();
    return client;
  };
  const serve = async (server: InMemoryTransport, message: JSONRPCMessage): Promise<void> => {
    if (!('method' in message)) {
      const id = message.id ?? 'none';
      replies.set(id, [...(replies.get(id) ?? []), message]);
      for (const listener of replied) listener();
      return;
    }
    if (!('id' in message)) return;
    const answer = (value: Record<string, unknown>) =>
      server.send({ jsonrpc: '2.0', id: message.id, result: value });
    if (message.method === 'initialize') {
      const serverInfo = { name: 'driven', version: '1.0.0' };
      return answer({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo });
    }
    if (message.method === 'tools/call') {
      called.resolve(server);
      return answer(await result);
    }
    const error = { code: -32601, message: 'Method not found' };
    await server.send({ jsonrpc: '2.0', id: message.id, error });
  };
  /** Resolves once `check` holds, checked at each response the bot sends (and at once). */
  const when = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      const listener = (): void => {
        if (!check()) return;
        replied.delete(listener);
        resolve();
      };
      replied.add(listener);
      listener();
    });
  /** Sends once the bot has called `t`. */
  const send = async (message: JSONRPCMessage) => (await called.promise).send(message);
  return { connect, replies, when, send };
}
