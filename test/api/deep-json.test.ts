// Free-form JSON nested past MAX_NESTING is refused with a 400 naming the field and the limit, before anything
// is written: 20,000 nested arrays in a 40 KB body would otherwise overflow the stack in the recursive code the
// body meets later (the Idempotency-Key's canonical form: a 500; JSON.stringify of the record: a 503 "retry
// shortly", retried for ever).
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { ApiError } from '../../src/api/errors.js';
import { Idempotency } from '../../src/api/idempotency.js';
import { ASK_HUMAN_INPUT } from '../../src/api/mcp-endpoint.js';
import { createQuestion, type QuestionsDeps } from '../../src/api/questions.js';
import { CALL_CREATE, MAX_NESTING, QUESTION_CREATE } from '../../src/api/schemas.js';
import { validator } from '../../src/api/validate.js';
import { refusal } from './refusal.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const prefix = uniquePrefix();
const redis = new Redis(redisUrl());
afterAll(async () => {
  redis.disconnect();
  await deleteUnder(prefix);
});

/** `levels` arrays, one inside the other, around `true`: the text is built, never a recursive stringify. */
const nestedText = (levels: number): string => `${'['.repeat(levels)}true${']'.repeat(levels)}`;
const nested = (levels: number): unknown => JSON.parse(nestedText(levels));

const SCHEMA = { type: 'object', properties: {} };
const QUESTION = { message: 'Ship?', requestedSchema: SCHEMA, to: { user: 'U1' } };
const deepMessage = (path: string): string =>
  `${path}: must not nest objects and arrays more than ${MAX_NESTING} levels deep`;
const tooDeep = (path: string): string => `invalid_request ${deepMessage(path)}`;

describe('free-form JSON in a request', () => {
  it(`is accepted nested ${MAX_NESTING} levels deep, refused at one more, naming the field`, () => {
    const valid = validator(QUESTION_CREATE);
    // metadata is an object: one level, plus the arrays inside it.
    const metadata = (levels: number) => ({ chain: nested(levels - 1) });
    expect(refusal(() => valid({ ...QUESTION, metadata: metadata(MAX_NESTING) }))).toBe('accepted');
    expect(refusal(() => valid({ ...QUESTION, metadata: metadata(MAX_NESTING + 1) }))).toBe(
      tooDeep('/metadata'),
    );
  });

  it('is refused in metadata, a call’s arguments and an ask_human requestedSchema, however deep', () => {
    const deep = { chain: nested(20_000) };
    expect(refusal(() => validator(QUESTION_CREATE)({ ...QUESTION, metadata: deep }))).toBe(
      tooDeep('/metadata'),
    );
    const call = { server: 's', tool: 't', as: { user: 'U1' }, arguments: deep };
    expect(refusal(() => validator(CALL_CREATE)(call))).toBe(tooDeep('/arguments'));
    expect(refusal(() => validator(ASK_HUMAN_INPUT)({ ...QUESTION, requestedSchema: deep }))).toBe(
      tooDeep('/requestedSchema'),
    );
    expect(refusal(() => validator(QUESTION_CREATE)(nested(20_000)))).toBe(tooDeep('/'));
  });

  it('gets 400 from POST /questions with an Idempotency-Key, before the key is reserved or anything is written', async () => {
    const body = `{"message":"Ship?","requestedSchema":{"type":"object","properties":{}},"to":{"user":"U1"},"metadata":{"chain":${nestedText(20_000)}}}`;
    expect(body.length).toBeGreaterThan(40_000);
    const opened: unknown[] = [];
    const deps: QuestionsDeps = {
      open: (request) => {
        opened.push(request);
        return Promise.reject(new Error('nothing may be opened'));
      },
      get: () => Promise.resolve(undefined),
      end: () => Promise.reject(new Error('nothing may end')),
      checkSchema: () => undefined,
      timeoutMs: () => 60_000,
      refuseCallback: () => undefined,
      ended: {
        subscribe: () => ({ ended: new Promise(() => undefined), cancel: () => undefined }),
        listen: () => undefined,
        unlisten: () => undefined,
      },
      idempotency: new Idempotency(redis, (client, key) => `${prefix}:idem:${client}:${key}`, systemClock),
      clock: systemClock,
    };
    const req = post(body, { 'idempotency-key': 'deep-1' });
    const answer = createQuestion(deps, { name: 'ci' }, req, new ServerResponse(req));
    await expect(answer).rejects.toBeInstanceOf(ApiError);
    await expect(answer).rejects.toMatchObject({
      code: 'invalid_request',
      status: 400,
      message: deepMessage('/metadata'),
    });
    expect(opened).toEqual([]);
    expect(await redis.keys(`${prefix}:*`)).toEqual([]);
  });
});

function post(body: string, headers: Record<string, string>): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = 'POST';
  req.headers = { 'content-type': 'application/json', 'content-length': String(body.length), ...headers };
  req.push(body);
  req.push(null);
  return req;
}
