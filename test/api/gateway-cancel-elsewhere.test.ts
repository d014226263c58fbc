// A host's `notifications/cancelled` for a gateway call of POST /mcp that its balancer sends to another replica
// than the one running the call: two bot replicas on one Redis and the Slack stand-in, in-process downstream
// servers (test/api/gateway-downstreams.ts) whose tool asks the person a question, a 2025 elicitation or a
// 2026-07-28 input round. The call runs on replica 0; the cancel goes to replica 0 itself (the baseline) or to
// replica 1, and both end the same way: the question withdrawn and its card saying so once, the downstream
// call aborted (2025) or never sent again (2026), the host's request closed without an answer.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJsonRpc } from '../support/json-rpc.js';
import { startHarness, type Harness } from '../system/harness.js';
import { legacyDownstream, modernDownstream } from './gateway-downstreams.js';

const TOKEN = 'gateway-cancel-token-0123456789';
/** Whom gateway calls run for (`api.gateway.as`): their questions go to this person's DM. */
const PERSON = 'U2';

describe("a host's cancel of a gateway call, on the replica running it or on another", () => {
  let h: Harness;
  let legacy: Awaited<ReturnType<typeof legacyDownstream>>;
  let modern: Awaited<ReturnType<typeof modernDownstream>>;
  beforeAll(async () => {
    [legacy, modern] = await Promise.all([legacyDownstream(), modernDownstream()]);
    h = await startHarness({
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      servers: { legacy: { url: legacy.url, gateway: true }, modern: { url: modern.url, gateway: true } },
      config: { api: { gateway: { as: PERSON } } },
      replicas: 2,
    });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await Promise.all([legacy.close(), modern.close()]);
  });

  const post = (replica: number, message: object) =>
    postJsonRpc(new URL(`http://127.0.0.1:${h.replicas[replica]?.port}/mcp`), TOKEN, message);

  /** The card asking `message` in the person's DM, once posted. */
  async function cardAsking(message: string): Promise<string> {
    const channel = h.standin.dmChannelOf(PERSON);
    const asks = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes(message);
    await h.standin.waitForCall('chat.postMessage', (c) => c.ok && asks(c.args.blocks), 30_000);
    return h.standin.messagesIn(channel).find((m) => asks(m.blocks))?.ts ?? '';
  }

  /**
   * Calls `<server>__ask` on replica 0, cancels it on `cancelOn` once its card is up, and reports how it ended:
   * the card's first update (as the person reads it), how many updates it got, and the host's HTTP answer.
   */
  async function cancelledCall(server: 'legacy' | 'modern', cancelOn: number, message: string) {
    const requestId = `${server}-${randomUUID()}`;
    const arguments_ = { message };
    const call = await post(0, {
      id: requestId,
      method: 'tools/call',
      params: { name: `${server}__ask`, arguments: arguments_ },
    });
    const ts = await cardAsking(message);
    const cancel = await post(cancelOn, {
      method: 'notifications/cancelled',
      params: { requestId, reason: 'the agent gave up' },
    });
    expect(cancel.status).toBe(202);
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === ts, 15_000);
    const body = await call.text();
    return {
      status: call.status,
      answers: jsonRpcMessages(body).filter((m) => m.id === requestId),
      card: textsOf(update.args.blocks)
        .replaceAll(message, '<message>')
        .replace(/<!date\^\d+\^[^>]*>/g, '<when>'),
      updates: () => h.standin.calls.filter((c) => c.method === 'chat.update' && c.args.ts === ts).length,
    };
  }

  it('withdraws a 2025 elicitation and aborts the downstream call, as a cancel on the running replica does', async () => {
    const here = await cancelledCall('legacy', 0, 'Rotate the key (cancelled here)?');
    await legacy.cancelled('Rotate the key (cancelled here)?');
    const elsewhere = await cancelledCall('legacy', 1, 'Rotate the key (cancelled elsewhere)?');
    await legacy.cancelled('Rotate the key (cancelled elsewhere)?');
    expect(elsewhere.card).toBe(here.card);
    expect(elsewhere.card).toContain('Cancelled: the tool call that asked has ended');
    expect([elsewhere.status, elsewhere.answers]).toEqual([here.status, here.answers]);
    expect([elsewhere.updates(), here.updates()]).toEqual([1, 1]);
  });

  it('withdraws a 2026 round and sends the downstream server no retry, as a cancel on the running replica does', async () => {
    const here = await cancelledCall('modern', 0, 'Deploy to production (cancelled here)?');
    const elsewhere = await cancelledCall('modern', 1, 'Deploy to production (cancelled elsewhere)?');
    expect(elsewhere.card).toBe(here.card);
    expect(elsewhere.card).toContain('Cancelled: the tool call that asked has ended');
    expect([elsewhere.status, elsewhere.answers]).toEqual([here.status, here.answers]);
    expect(modern.legs('Deploy to production (cancelled here)?')).toEqual(['call']);
    expect(modern.legs('Deploy to production (cancelled elsewhere)?')).toEqual(['call']);
    expect([elsewhere.updates(), here.updates()]).toEqual([1, 1]);
  });
});

/** The JSON-RPC messages of a Streamable HTTP response's event stream. */
function jsonRpcMessages(text: string): { id?: unknown }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { id?: unknown });
}

/** Every text a person reads in `blocks`, one per line. */
function textsOf(blocks: unknown): string {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, field] of Object.entries(value)) {
        if (key === 'text' && typeof field === 'string') texts.push(field);
        else walk(field);
      }
    }
  };
  walk(blocks);
  return texts.join('\n');
}
