// The OpenAPI document declares, for each operation, every error status it may answer, from the one table of
// codes (src/api/errors.ts: API_ERRORS, OPERATION_ERRORS); a code an operation answers that its entry does not
// declare is logged as the document being wrong, so a handler and the document cannot drift apart unseen.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERRORS, ApiError, OPERATION_ERRORS, type OperationId } from '../../src/api/errors.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { API_PREFIX, apiRouter } from '../../src/api/router.js';
import { redisUrl } from '../setup/context.js';
import { listen, openApiDoc, routerDeps } from './support.js';

const doc = openApiDoc(openApiDocument(API_PREFIX));
const isOperation = (id: unknown): id is OperationId =>
  typeof id === 'string' && Object.hasOwn(OPERATION_ERRORS, id);

let redis: Redis;
beforeAll(() => {
  redis = new Redis(redisUrl());
});
afterAll(() => {
  redis.disconnect();
});

describe("the OpenAPI document's error responses", () => {
  it("declare each operation's codes under their status, each code named in its description", () => {
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    expect(operations.map((op) => op.operationId).sort()).toEqual(Object.keys(OPERATION_ERRORS).sort());
    for (const op of operations) {
      const id = op.operationId;
      if (!isOperation(id)) throw new Error(`operationId ${String(id)} has no entry in OPERATION_ERRORS`);
      const codes: readonly (keyof typeof API_ERRORS)[] = OPERATION_ERRORS[id];
      const errorStatuses = Object.keys(op.responses).filter((status) => Number(status) >= 400);
      expect([id, errorStatuses.sort()]).toEqual([
        id,
        [...new Set(codes.map((code) => String(API_ERRORS[code].status)))].sort(),
      ]);
      for (const code of codes) {
        const response = op.responses[String(API_ERRORS[code].status)];
        expect(JSON.stringify(response)).toContain(`${code}: `);
      }
    }
  });

  it('log a code an operation answered that its entry does not declare, and still answer it', async () => {
    const logged: object[] = [];
    const api = await listen(
      apiRouter(
        routerDeps(redis, {
          questions: { get: () => Promise.reject(new ApiError('not_connected', 'not a question refusal')) },
          logger: { error: (obj) => logged.push(obj) },
        }),
      ),
    );
    const reply = await api.request('GET', '/questions/q1');
    await api.close();
    expect([reply.status, (reply.body.error as { code?: string }).code]).toEqual([409, 'not_connected']);
    expect(logged).toEqual([{ code: 'not_connected', operation: 'getQuestion' }]);
  });
});
