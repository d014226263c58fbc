// A method a path does not take is answered 405 with an Allow header (RFC 9110 §15.5.6) naming exactly the
// methods the OpenAPI document declares for that path, in the shape the document describes once for every path
// (components.responses.MethodNotAllowed); the public document's path says so without a token.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { API_PREFIX, apiRouter } from '../../src/api/router.js';
import { redisUrl } from '../setup/context.js';
import { Contract, listen, openApiDoc, routerDeps } from './support.js';

const doc = openApiDoc(openApiDocument(API_PREFIX));
const contract = new Contract(doc);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

let redis: Redis;
let api: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  redis = new Redis(redisUrl());
  api = await listen(apiRouter(routerDeps(redis)));
});
afterAll(async () => {
  await api.close();
  redis.disconnect();
});

describe('a method a path does not take', () => {
  it('is answered 405 with Allow naming the methods the document declares for the path', async () => {
    const seen: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const [template, operations] of Object.entries(doc.paths)) {
      const declared = Object.keys(operations).map((m) => m.toUpperCase());
      for (const method of METHODS.filter((m) => !declared.includes(m))) {
        const reply = await api.request(method, template.replace('{id}', 'x1'));
        const label = `${method} ${template}`;
        const allow = (reply.headers.get('allow') ?? '').split(', ').sort();
        seen[label] = `${reply.status} ${allow.join(',')}`;
        expected[label] = `405 ${[...declared].sort().join(',')}`;
        expect(contract.componentProblems('MethodNotAllowed', reply)).toEqual([]);
      }
    }
    expect(Object.keys(seen).length).toBeGreaterThan(20);
    expect(seen).toEqual(expected);
  });

  it('is answered 405 on the public OpenAPI document without a token, and 401 elsewhere without one', async () => {
    const open = await api.request('POST', '/openapi.json', { token: null });
    expect([open.status, open.headers.get('allow')]).toEqual([405, 'GET']);
    const closed = await api.request('PUT', '/questions/x1', { token: null });
    expect(closed.status).toBe(401);
  });
});
