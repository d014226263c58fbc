// A call's questions (PRODUCT "Automations contract": GET /calls/{id} lists them) are asked by the call's MCP
// server, so they carry the call (`origin.callId`), not a client: the client that started the call reads,
// long-polls and withdraws them; another client, and a question of a call that is gone, get 404. One whose
// answer's content is no longer kept says so rather than answering the {} its record reads back as.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clients } from '../../src/api/auth.js';
import { Idempotency } from '../../src/api/idempotency.js';
import { API_PREFIX, apiRouter } from '../../src/api/router.js';
import { systemClock } from '../../src/clock.js';
import type { EndReason, Outcome, Question } from '../../src/relay/types.js';
import { openApiDocument } from '../../src/api/openapi.js';
import type { StoredQuestion } from '../../src/store/index.js';
import { redisUrl } from '../setup/context.js';
import { question } from '../support/question.js';
import { Contract, openApiDoc } from './support.js';

/** Asked by call `call_mine`, which client `ci` started (as a call's question is stored: no `client`). */
const OF_CALL: Question = question({
  id: 'q-call',
  server: 'deploy',
  origin: { userId: 'U1', callId: 'call_mine' },
});
/** Asked by a call whose record is gone. */
const OF_GONE_CALL: Question = question({ id: 'q-gone', origin: { userId: 'U1', callId: 'call_gone' } });
/** Accepted, its answer's content dropped once its holder had it (a replica of an earlier version did so). */
const DROPPED: StoredQuestion = {
  ...question({
    id: 'q-dropped',
    origin: { userId: 'U1', callId: 'call_mine' },
    state: 'accepted',
    outcome: { action: 'accept', content: {} },
    reason: 'answered',
  }),
  contentDropped: true,
};
/** Accepted with nothing filled in: its empty content is the answer. */
const EMPTY: Question = question({
  id: 'q-empty',
  origin: { userId: 'U1', callId: 'call_mine' },
  state: 'accepted',
  outcome: { action: 'accept', content: {} },
  reason: 'answered',
});
const CALLS: Record<string, string> = { call_mine: 'ci' };

let server: Server;
let redis: Redis;
let base: string;
const ended: { id: string; outcome: Outcome; reason: EndReason }[] = [];

beforeAll(async () => {
  redis = new Redis(redisUrl());
  const questions = new Map<string, StoredQuestion>(
    [OF_CALL, OF_GONE_CALL, DROPPED, EMPTY].map((q) => [q.id, q]),
  );
  const handler = apiRouter({
    clients: new Clients([
      { name: 'ci', token: 'tok-ci' },
      { name: 'other', token: 'tok-other' },
    ]),
    logger: { error: () => undefined },
    questions: {
      open: () => Promise.reject(new Error('not asked')),
      get: (id) => Promise.resolve(questions.get(id)),
      end: (id, outcome, reason) => {
        ended.push({ id, outcome, reason });
        const now = question({ ...OF_CALL, state: 'cancelled', outcome, reason, endedAt: 1_000 });
        return Promise.resolve({ won: true, question: now });
      },
      callClient: (callId) => Promise.resolve(CALLS[callId]),
      checkSchema: () => undefined,
      timeoutMs: () => 1000,
      refuseCallback: () => undefined,
      idempotency: new Idempotency(redis, (client, key) => `unused:${client}:${key}`, systemClock),
      clock: systemClock,
      ended: {
        listen: () => undefined,
        unlisten: () => undefined,
        subscribe: () => ({ ended: new Promise<void>(() => undefined), cancel: () => undefined }),
      },
    },
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}/api/v1/questions`;
});

afterAll(async () => {
  redis.disconnect();
  await new Promise((resolve) => server.close(resolve));
});

const as = (token: string, method = 'GET') => ({ method, headers: { authorization: `Bearer ${token}` } });

describe("a call's question", () => {
  it('is read by the client that started the call, also with a wait (the question pending)', async () => {
    const read = await fetch(`${base}/q-call`, as('tok-ci'));
    expect([read.status, await read.json()]).toEqual([
      200,
      expect.objectContaining({ id: 'q-call', status: 'pending' }),
    ]);
    const waited = await fetch(`${base}/q-call?wait=0`, as('tok-ci'));
    expect(waited.status).toBe(200);
  });

  it('is 404 to another client, for reading and for withdrawing, and is not ended by it', async () => {
    expect((await fetch(`${base}/q-call`, as('tok-other'))).status).toBe(404);
    expect((await fetch(`${base}/q-call`, as('tok-other', 'DELETE'))).status).toBe(404);
    expect(ended).toEqual([]);
  });

  it('is 404 once its call is gone', async () => {
    expect((await fetch(`${base}/q-gone`, as('tok-ci'))).status).toBe(404);
  });

  it('is withdrawn by the client that started the call', async () => {
    const withdrawn = await fetch(`${base}/q-call`, as('tok-ci', 'DELETE'));
    expect([withdrawn.status, await withdrawn.json()]).toEqual([
      200,
      expect.objectContaining({ id: 'q-call', status: 'cancelled', reason: 'withdrawn' }),
    ]);
    expect(ended).toEqual([{ id: 'q-call', outcome: { action: 'cancel' }, reason: 'withdrawn' }]);
  });
});

describe("a call's accepted question whose content is no longer kept", () => {
  const contract = new Contract(openApiDoc(openApiDocument(API_PREFIX)));
  const read = async (id: string) => {
    const response = await fetch(`${base}/${id}`, as('tok-ci'));
    const body = (await response.json()) as Record<string, unknown>;
    return { status: response.status, headers: response.headers, body };
  };

  it('says so instead of answering {} as its content, in a shape the OpenAPI document declares', async () => {
    const dropped = await read('q-dropped');
    expect(dropped.body).toMatchObject({ status: 'accepted', reason: 'answered' });
    expect(dropped.body.result).toEqual({ action: 'accept', contentDropped: true });
    expect(contract.problems('GET', '/questions/{id}', dropped)).toEqual([]);
  });

  it('is told apart from an answer whose content is empty, which is answered as it is', async () => {
    const empty = await read('q-empty');
    expect(empty.body.result).toEqual({ action: 'accept', content: {} });
    expect(contract.problems('GET', '/questions/{id}', empty)).toEqual([]);
  });
});
