// An API question's webhook through the running bot: real Redis, real HTTP, the Slack stand-in, and an
// independent receiver that checks the signature with its own HMAC code and can answer 500 to make the bot retry.
import { createHmac } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-hooks-0123456789';
const SECRET = 'whsec-system-0123456789';

describe('an API question with a callbackUrl', () => {
  let h: Harness;
  let receiver: Server;
  let port: number;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const arrivals = new EventEmitter();
  /** Resolves once the receiver has `count` deliveries in all. */
  const receivedCount = async (count: number): Promise<void> => {
    while (received.length < count) await once(arrivals, 'delivery');
  };
  /** The receiver's next answers' statuses, in order; 200 once they run out. */
  const statuses: number[] = [];
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(statuses.shift() ?? 200).end();
        arrivals.emit('delivery');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    h = await startHarness({
      replicas: 1,
      env: {
        ELICIT_RELAY_API_TOKEN: TOKEN,
        ELICIT_RELAY_WEBHOOK_HOSTS: `127.0.0.1:${port}`,
        ELICIT_RELAY_WEBHOOK_SECRET: SECRET,
        // A failed delivery is tried again after 200 ms here (default 10 s), doubling after each failure.
        ELICIT_RELAY_WEBHOOK_RETRY_BASE: '200ms',
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('is POSTed its GET JSON plus type, signed, once it ends', { timeout: 60_000 }, async () => {
    const url = `http://127.0.0.1:${h.replicas[0]?.port}/api/v1`;
    const delivered = receivedCount(received.length + 1);
    const created = await fetch(`${url}/questions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        message: 'Hook me?',
        to: { user: 'U1' },
        requestedSchema: { type: 'object', properties: {} },
        callbackUrl: `http://127.0.0.1:${port}/hook`,
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const call = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && JSON.stringify(c.args.blocks ?? '').includes('Hook me?'),
      15_000,
    );
    const channel = String(call.args.channel);
    const ts =
      h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes('Hook me?'))?.ts ?? '';
    await h.driver.clickButton({ userId: 'U1', channel, ts, actionId: 'elicit_decline' });
    await delivered;
    await expectSignedDelivery(received.at(-1), `${url}/questions/${id}`, 'question.ended');
  });

  it('is POSTed for a call: its GET JSON plus type call.ended, signed, once the call ends', async () => {
    const url = `http://127.0.0.1:${h.replicas[0]?.port}/api/v1`;
    const delivered = receivedCount(received.length + 1);
    const created = await fetch(`${url}/calls`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        server: 'fixture',
        tool: 'echo',
        arguments: { text: 'hooked' },
        as: { user: 'U1' },
        callbackUrl: `http://127.0.0.1:${port}/hook`,
      }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    await delivered;
    const body = await expectSignedDelivery(received.at(-1), `${url}/calls/${id}`, 'call.ended');
    expect(body).toMatchObject({ id, status: 'completed', result: { content: [{ text: 'hooked' }] } });
  });

  it('is delivered again, with the same delivery id and a valid signature, after the receiver answers 500', async () => {
    const url = `http://127.0.0.1:${h.replicas[0]?.port}/api/v1`;
    const before = received.length;
    statuses.push(500);
    const delivered = receivedCount(before + 2);
    const created = await fetch(`${url}/questions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        message: 'Retry me?',
        to: { user: 'U1' },
        requestedSchema: { type: 'object', properties: {} },
        callbackUrl: `http://127.0.0.1:${port}/hook`,
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await h.driver.clickButton({ userId: 'U1', ...(await cardOf(id)), actionId: 'elicit_decline' });
    await delivered;
    const [refused, accepted] = received.slice(before);
    await expectSignedDelivery(refused, `${url}/questions/${id}`, 'question.ended');
    await expectSignedDelivery(accepted, `${url}/questions/${id}`, 'question.ended');
    expect(accepted?.headers['x-elicit-relay-delivery']).toBe(refused?.headers['x-elicit-relay-delivery']);
    expect(statuses).toEqual([]);
  });

  /** Where the card of question `id` is (the card carries its id). */
  async function cardOf(id: string): Promise<{ channel: string; ts: string }> {
    const isCard = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes(id);
    const call = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && isCard(c.args.blocks),
      15_000,
    );
    const channel = String(call.args.channel);
    return { channel, ts: h.standin.messagesIn(channel).find((m) => isCard(m.blocks))?.ts ?? '' };
  }

  /** Checks a delivery's signature with our own HMAC code, and that its body is the resource's GET plus type. */
  async function expectSignedDelivery(
    hook: { headers: IncomingHttpHeaders; body: string } | undefined,
    resource: string,
    type: string,
  ): Promise<unknown> {
    const timestamp = String(hook?.headers['x-elicit-relay-timestamp']);
    // Unix seconds (not milliseconds), close to now.
    expect(timestamp).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    const mac = createHmac('sha256', SECRET).update(`v1:${timestamp}:${hook?.body}`).digest('hex');
    expect(hook?.headers['x-elicit-relay-signature']).toBe(`v1=${mac}`);
    expect(hook?.headers['x-elicit-relay-delivery']).toMatch(/^dlv_/);
    const got = (await (await fetch(resource, { headers })).json()) as Record<string, unknown>;
    const body: unknown = JSON.parse(hook?.body ?? '');
    expect(body).toEqual({ ...got, type });
    return body;
  }

  it('is refused at creation with 400 when its host is not allowed', async () => {
    const url = `http://127.0.0.1:${h.replicas[0]?.port}/api/v1`;
    const refused = await fetch(`${url}/questions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'm',
        to: { user: 'U1' },
        requestedSchema: { type: 'object', properties: {} },
        callbackUrl: 'https://evil.example/hook',
      }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: {
        code: 'invalid_request',
        message: expect.stringContaining('host evil.example is not allowed') as string,
      },
    });
  });
});
