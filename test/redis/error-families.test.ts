// The error families built on RelayError (StoreError, WebhookError, AuditError) each keep their own `code` union,
// their `name` and a native `cause`, and stay RelayErrors, so callers branch on `code` whatever the family.
import { describe, expect, it } from 'vitest';
import { AuditError } from '../../src/audit/errors.js';
import { RelayError, relayErrorCode } from '../../src/relay/errors.js';
import { StoreError } from '../../src/redis/index.js';
import { WebhookError } from '../../src/webhooks/errors.js';

describe('the error families on RelayError', () => {
  const cause = new Error('the underlying failure');

  it.each([
    ['StoreError', new StoreError('redis_unavailable', 'Redis is down', { cause }), 'redis_unavailable'],
    ['WebhookError', new WebhookError('timeout', 'no answer in 10 s', { cause }), 'timeout'],
    ['AuditError', new AuditError('postgres_error', 'PostgreSQL refused', { cause }), 'postgres_error'],
  ])('a %s carries its code, its name, its message and the native cause', (name, error, code) => {
    expect(error).toBeInstanceOf(RelayError);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(relayErrorCode(error)).toBe(code);
    expect(error.message).not.toBe('');
    expect(error.cause).toBe(cause);
    expect(Object.getOwnPropertyDescriptor(error, 'cause')?.enumerable).toBe(false);
  });

  it("refuses, at compile time, a code from another family's union", () => {
    // @ts-expect-error 'timeout' is a WebhookErrorCode, not a StoreErrorCode.
    const store = new StoreError('timeout', 'not a store code');
    // @ts-expect-error 'redis_error' is a StoreErrorCode, not an AuditErrorCode.
    const audit = new AuditError('redis_error', 'not an audit code');
    // @ts-expect-error 'bad_cursor' is an AuditErrorCode, not a WebhookErrorCode.
    const webhook = new WebhookError('bad_cursor', 'not a webhook code');
    expect([store.name, audit.name, webhook.name]).toEqual(['StoreError', 'AuditError', 'WebhookError']);
  });
});
