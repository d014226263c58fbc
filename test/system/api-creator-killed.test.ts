// Fault: the replica that accepted POST /api/v1/questions is killed (SIGKILL) right after its 201, before
// its card is posted. Its Slack calls go through a proxy that never lets a chat.postMessage reach the stand-in,
// so the card cannot be its own: another replica's outbox worker posts it (the job was queued before the
// 201), that replica's sweep attaches it, and the answer ends the question for a long-poll there.
import { request, createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl } from '../setup/context.js';
import { apiOf, type Api } from './api-support.js';
import { childReplica } from './child-replicas.js';
import { startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-creator-killed-0123456789';
/**
 * A job taken by the killed replica's worker is run again once its BullMQ lock (30 s) has lapsed and a
 * stalled-jobs check (every 30 s) sees it: up to a minute, plus start-up on a loaded machine.
 */
const STALLED_JOB_BOUND_MS = 90_000;

/** Forwards every Slack call to the stand-in except chat.postMessage, which it holds unanswered. */
async function startPostBlockingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const held: ServerResponse[] = [];
  const { origin } = new URL(target);
  const server: Server = createServer((req, res) => {
    if (req.url === '/api/chat.postMessage') {
      held.push(res);
      req.resume();
      return;
    }
    const forwarded = request(`${origin}${req.url ?? '/'}`, { method: req.method, headers: req.headers });
    forwarded.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    close: async () => {
      held.forEach((res) => res.destroy());
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a replica killed between its 201 for a new API question and the card', () => {
  let survivor: Harness;
  let api: Api;
  beforeAll(async () => {
    survivor = await startHarness({
      // The sweep that attaches a card its creator never recorded runs every 500 ms here (default 30 s).
      env: { ELICIT_RELAY_API_TOKEN: TOKEN, ELICIT_RELAY_REDELIVER_AFTER: '1s' },
    });
    api = apiOf(survivor, TOKEN);
  });
  afterAll(async () => {
    await survivor.close();
  });

  it(
    'has its card posted by another replica, and the answer there ends the question for a long-poll',
    { timeout: STALLED_JOB_BOUND_MS + 40_000 },
    async () => {
      const proxy = await startPostBlockingProxy(survivor.standin.apiUrl);
      const store = await QuestionStore.open({
        url: redisUrl(),
        prefix: survivor.prefix,
        holderId: 'inspector',
      });
      try {
        const { run: doomed, port } = await childReplica(survivor, {
          ELICIT_RELAY_API_TOKEN: TOKEN,
          SLACK_API_URL: proxy.url,
        });
        const created = await fetch(`http://127.0.0.1:${port}/api/v1/questions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            message: 'Release 4.2 to production?',
            to: { user: 'U1' },
            requestedSchema: { type: 'object', properties: {} },
          }),
        });
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: string };
        doomed.child.kill('SIGKILL');
        await doomed.done;

        const isCard = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes(id);
        const posted = await survivor.standin.waitForCall(
          'chat.postMessage',
          (c) => c.ok && isCard(c.args.blocks),
          STALLED_JOB_BOUND_MS,
        );
        const channel = String(posted.args.channel);
        const ts = survivor.standin.messagesIn(channel).find((m) => isCard(m.blocks))?.ts ?? '';
        // The sweep records the card with the question (nothing announces that step, so look for it); only
        // then can the answer's card update find it.
        while (!(await store.get(id))?.card) await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await store.get(id))?.card).toEqual({ channel, ts });

        const longPoll = api('GET', `/questions/${id}?wait=60`);
        await survivor.driver.clickButton({ userId: 'U1', channel, ts, actionId: 'elicit_decline' });
        const ended = await longPoll;
        expect(ended.status).toBe(200);
        expect(ended.body).toMatchObject({
          id,
          status: 'declined',
          reason: 'declined',
          answeredBy: 'U1',
          result: { action: 'decline' },
        });
        const updated = await survivor.standin.waitForCall('chat.update', (c) => c.args.ts === ts);
        expect(updated.ok).toBe(true);
        expect(
          survivor.standin.calls.filter((c) => c.method === 'chat.postMessage' && isCard(c.args.blocks)),
        ).toHaveLength(1);
      } finally {
        await store.close();
        await proxy.close();
      }
    },
  );
});
