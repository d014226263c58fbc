// An API call's 2026 round outlives the replica running it (#17 items 3 and 6): POST /api/v1/calls on a replica
// in a child process, which asks the first round of the MRTR fixture's `two_rounds` and is SIGKILLed (or stopped
// gracefully, SIGTERM) before the answer; the answer given on the survivor resumes the call there (one retry: one
// second-round card), and the survivor completes the call's record: a long-poll on it returns the result, and
// the call's webhook and audit event come once.
import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAKE_OVER_EVERY_MS } from '../../src/rounds/index.js';
import { apiOf, auditEventWith, type Api } from './api-support.js';
import type { CliRun } from './child.js';
import { KILLED_LEASE_MS, childReplica } from './child-replicas.js';
import { inputLabelled, openForm } from './harness.js';
import { cardInDm, logsOnFailure, startMrtrHarness, type MrtrHarness } from './mrtr-harness.js';

const TOKEN = 'api-token-mrtr-api-durable-0123456789';
const SECRET = 'whsec-mrtr-api-durable-0123456789';

describe('an API call whose replica dies during a 2026 round', () => {
  let h: MrtrHarness;
  let api: Api;
  let receiver: Server;
  /** The webhook deliveries' bodies, as received. */
  const deliveries: Record<string, unknown>[] = [];
  const arrivals = new EventEmitter();
  let apiEnv: Record<string, string>;
  let hookPort = 0;
  const logs = logsOnFailure();
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        deliveries.push(JSON.parse(body) as Record<string, unknown>);
        res.writeHead(200).end();
        arrivals.emit('delivery');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookPort = (receiver.address() as AddressInfo).port;
    apiEnv = {
      ELICIT_RELAY_API_TOKEN: TOKEN,
      ELICIT_RELAY_WEBHOOK_HOSTS: `127.0.0.1:${hookPort}`,
      ELICIT_RELAY_WEBHOOK_SECRET: SECRET,
    };
    h = await startMrtrHarness({ env: apiEnv, logger: logs.logger });
    api = apiOf(h, TOKEN);
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** Resolves once the receiver has a delivery for call `id`. */
  async function deliveredFor(id: string): Promise<void> {
    while (!deliveries.some((body) => body.id === id)) await once(arrivals, 'delivery');
  }

  /** Answers the form of the card asking `userId` `message` on the survivor, setting input `label` to `value`. */
  async function answerOnSurvivor(userId: string, message: string, label: string, value: string) {
    const form = await openForm(h, userId, await cardInDm(h, userId, message));
    const values = { [inputLabelled(h, form, label)]: value };
    await h.driver.submitView({ userId, viewId: form, values });
  }

  /** POST /api/v1/calls of `two_rounds` as `userId` on a replica in a child process; the call's id. */
  async function callOnDoomed(userId: string): Promise<{ id: string; doomed: CliRun }> {
    const { run: doomed, port } = await childReplica(h, apiEnv, { modern: { url: h.peer.url } });
    logs.child(doomed);
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        server: 'modern',
        tool: 'two_rounds',
        arguments: {},
        as: { user: userId },
        callbackUrl: `http://127.0.0.1:${hookPort}/hook`,
      }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    return { id, doomed };
  }

  /**
   * The first round's card is out, asked by the doomed replica, which `signal` stops before anyone answers;
   * both rounds are answered on the survivor, and the call completes there once, with one retry per round.
   */
  async function resumedOnSurvivor(userId: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const { id, doomed } = await callOnDoomed(userId);
    await cardInDm(h, userId, 'Your name?');
    doomed.child.kill(signal);
    expect((await doomed.done).code).toBe(signal === 'SIGTERM' ? 0 : null);

    await answerOnSurvivor(userId, 'Your name?', 'Name', 'Ada');
    await answerOnSurvivor(userId, 'Send a greeting to Ada?', 'Send it?', 'Yes');
    const ended = await api('GET', `/calls/${id}?wait=60`);
    expect(ended.body).toMatchObject({
      id,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
    });
    expect(ended.body.questions).toHaveLength(2);
    // The first round was retried once: one card asks the second round's question.
    const channel = h.standin.dmChannelOf(userId);
    const confirmCards = h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === channel &&
        JSON.stringify(c.args.blocks ?? '').includes('Send a greeting'),
    );
    expect(confirmCards).toHaveLength(1);

    await deliveredFor(id);
    expect(deliveries.filter((body) => body.id === id)).toEqual([
      expect.objectContaining({ type: 'call.ended', id, status: 'completed' }),
    ]);
    await auditEventWith(h, { type: 'call.ended', call: id });
    const audit = await api('GET', '/audit');
    const events = (audit.body.events as Record<string, unknown>[]).filter((e) => e.call === id);
    expect(events.filter((e) => e.type === 'call.ended')).toEqual([
      expect.objectContaining({ type: 'call.ended', status: 'completed' }),
    ]);
  }

  it(
    'is resumed by the survivor where its round’s answer is given after a SIGKILL: one retry, and the call completes there',
    { timeout: KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 90_000 },
    () => resumedOnSurvivor('U1', 'SIGKILL'),
  );

  it(
    'is left to a survivor by a replica stopped with SIGTERM: its round question stays pending, and the call completes on the survivor',
    { timeout: KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 90_000 },
    () => resumedOnSurvivor('U2', 'SIGTERM'),
  );
});
