// JSON-RPC batches at POST /mcp. Revision 2025-03-26 allowed them and later revisions removed them, but the SDK's
// transport takes them under any revision, answering each request; so a host's `notifications/cancelled` reaches
// the call it names whether it comes alone or in a batch, and a tools/call that is a batch's one request is as
// cancellable as one sent alone.
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointPorts, HumanAnswer } from '../../src/mcp/endpoint.js';
import { callIdOf } from '../../src/mcp/host-calls.js';
import { endpointPorts, endpointServers } from '../support/mcp-endpoint.js';

const TOKEN = 'tok-batch';
const DEPLOY = {
  name: 'ask_human',
  arguments: { message: 'Deploy?', requestedSchema: { type: 'object', properties: {} }, to: { user: 'U1' } },
};

/** Ports whose ask_human calls wait until the test answers them; cancels for calls not found here are kept. */
function heldPorts() {
  const asks: { signal: AbortSignal; answer: (a: HumanAnswer) => void }[] = [];
  const elsewhere: string[] = [];
  let onAsk: () => void = () => undefined;
  const ports = endpointPorts(TOKEN, {
    askHuman: (_client, _args, { signal }) =>
      new Promise((answer) => {
        asks.push({ signal, answer });
        onAsk();
      }),
    cancelElsewhere: (_client, callId) => {
      elsewhere.push(callId);
      return Promise.resolve();
    },
  });
  const nextAsk = () => new Promise<void>((resolve) => (onAsk = resolve));
  return { ports, asks, elsewhere, nextAsk };
}

const endpoint = endpointServers();
afterEach(() => endpoint.close());
const serve = (ports: EndpointPorts): Promise<URL> => endpoint.serve(ports);

/** A body POSTed by a 2025-03-26 host (no session: the endpoint is stateless unless the host initialized). */
const post = (url: URL, body: unknown): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-03-26',
    },
    body: JSON.stringify(body),
  });

const deploy = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: DEPLOY });
const cancel = (requestId: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason: 'the agent gave up' },
});

describe('POST /mcp with JSON-RPC batches', () => {
  it('withdraws a call running here when its cancel comes in a batch', async () => {
    const { ports, asks, elsewhere, nextAsk } = heldPorts();
    const url = await serve(ports);
    const asked = nextAsk();
    const call = post(url, deploy(5));
    await asked;

    const res = await post(url, [cancel(5)]);

    expect(res.status).toBe(202);
    await expect.poll(() => asks[0]?.signal.aborted).toBe(true);
    expect(elsewhere).toEqual([]);
    await call.then((r) => r.body?.cancel()).catch(() => undefined);
  });

  it("passes a batched cancel for a call not running here on, with the host's id", async () => {
    const { ports, elsewhere } = heldPorts();
    const url = await serve(ports);

    const res = await post(url, [cancel(9), cancel(10)]);

    expect(res.status).toBe(202);
    await expect.poll(() => elsewhere).toEqual([callIdOf(undefined, 9), callIdOf(undefined, 10)]);
  });

  it("withdraws a tools/call that is its batch's one request when the host cancels it", async () => {
    const { ports, asks, elsewhere, nextAsk } = heldPorts();
    const url = await serve(ports);
    const asked = nextAsk();
    const call = post(url, [deploy(6)]);
    await asked;

    await post(url, cancel(6));

    await expect.poll(() => asks[0]?.signal.aborted).toBe(true);
    expect(elsewhere).toEqual([]);
    await call.then((r) => r.body?.cancel()).catch(() => undefined);
  });

  it('answers every request of a batch, each under its own id', async () => {
    const { ports, asks, nextAsk } = heldPorts();
    const url = await serve(ports);
    const asked = nextAsk();
    const res = post(url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, deploy(2)]);
    await asked;
    asks[0]?.answer({ action: 'accept', content: {} });

    const text = await (await res).text();
    const ids = [...text.matchAll(/"id":(\d+)/g)].map((m) => Number(m[1]));
    expect(ids.sort()).toEqual([1, 2]);
  });
});
