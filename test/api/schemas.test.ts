// The API's shapes have one source: the OpenAPI document shows the very schema objects the validators check
// with, and a refusal names the path of the field at fault.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { QUESTION, QUESTION_CREATE, WAIT_QUERY } from '../../src/api/schemas.js';
import { validator } from '../../src/api/validate.js';
import { ApiError } from '../../src/api/errors.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } } };
const validCreate = validator(QUESTION_CREATE);

function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    if (error instanceof ApiError) return `${error.code} ${error.message}`;
    throw error;
  }
  return 'accepted';
}

describe('the API schemas', () => {
  it('are the objects the OpenAPI 3.1 document carries', () => {
    const doc = openApiDocument('/api/v1') as {
      openapi: string;
      components: { schemas: Record<string, unknown> };
      paths: Record<string, Record<string, { parameters?: { name: string; schema: unknown }[] }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.QuestionCreate).toBe(QUESTION_CREATE);
    expect(doc.components.schemas.Question).toBe(QUESTION);
    const wait = doc.paths['/questions/{id}']?.get?.parameters?.find((p) => p.name === 'wait');
    expect(wait?.schema).toBe(WAIT_QUERY.properties.wait);
  });

  it('accept every kind of recipient and a duration in either form', () => {
    for (const to of [{ user: 'U1' }, { users: ['U1', 'W2'] }, { usergroup: 'S1' }, { channel: 'C1' }]) {
      expect(refusal(() => validCreate({ message: 'm', requestedSchema: SCHEMA, to, timeout: '5m' }))).toBe(
        'accepted',
      );
    }
    expect(
      refusal(() =>
        validCreate({ message: 'm', requestedSchema: SCHEMA, to: { user: 'U1' }, timeout: 60000 }),
      ),
    ).toBe('accepted');
  });

  it('name the path of the field at fault, not the oneOf around it', () => {
    const base = { message: 'm', requestedSchema: SCHEMA };
    expect(refusal(() => validCreate({ ...base, to: { user: 7 } }))).toBe(
      'invalid_request /to/user: must be string',
    );
    expect(refusal(() => validCreate({ ...base, to: { users: ['U1', 'nobody'] } }))).toMatch(
      /^invalid_request \/to\/users\/1: must match pattern/,
    );
    expect(refusal(() => validCreate({ ...base, to: { user: 'U1' }, extra: 1 }))).toBe(
      'invalid_request /extra: must NOT have additional properties',
    );
    expect(refusal(() => validCreate({ requestedSchema: SCHEMA, to: { user: 'U1' } }))).toBe(
      "invalid_request /message: must have required property 'message'",
    );
  });

  it('coerce the wait query and bound it at 60 seconds', () => {
    const validWait = validator<{ wait?: number }>(WAIT_QUERY, { coerce: true });
    expect(validWait({ wait: '60' })).toEqual({ wait: 60 });
    expect(refusal(() => validWait({ wait: '61' }))).toBe('invalid_request /wait: must be <= 60');
    expect(refusal(() => validWait({ wait: 'soon' }))).toBe('invalid_request /wait: must be integer');
  });
});
