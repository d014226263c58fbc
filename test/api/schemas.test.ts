// The API's shapes have one source: the OpenAPI document shows the very schema objects the validators check
// with, and a refusal names the path of the field at fault.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { DURATION_WORDS, QUESTION, QUESTION_CREATE, WAIT_QUERY } from '../../src/api/schemas.js';
import { validator } from '../../src/api/validate.js';
import { refusal } from './refusal.js';
import { ASK_HUMAN_INPUT } from '../../src/api/mcp-endpoint.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } } };
const validCreate = validator(QUESTION_CREATE);

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
      'invalid_request /to/user: must be a user id like U… or W…, got 7',
    );
    expect(refusal(() => validCreate({ ...base, to: { users: ['U1', 'nobody'] } }))).toBe(
      'invalid_request /to/users/1: must be a user id like U… or W…, got "nobody"',
    );
    expect(refusal(() => validCreate({ ...base, to: { user: 'U1' }, extra: 1 }))).toBe(
      "invalid_request /extra: unknown field; the known fields are 'message', 'requestedSchema', 'to', 'team', 'timeout', 'callbackUrl', 'metadata'",
    );
    expect(refusal(() => validCreate({ requestedSchema: SCHEMA, to: { user: 'U1' } }))).toBe(
      'invalid_request /message: is required',
    );
  });

  // Every oneOf branch fails for a wrong `to`; the refusal names the key the client sent, never the first
  // branch's "required user".
  const WRONG_TO: [to: unknown, message: string][] = [
    [{ channel: 'general' }, '/to/channel: must be a channel id like C… or G…, got "general"'],
    [{ usergroup: 'oncall' }, '/to/usergroup: must be a user group id like S…, got "oncall"'],
    [{ users: [] }, '/to/users: must not be empty'],
    [{ user: 'alice' }, '/to/user: must be a user id like U… or W…, got "alice"'],
    [{ channel: 7 }, '/to/channel: must be a channel id like C… or G…, got 7'],
    [{ team: 'T1' }, "/to/team: unknown field; /to takes one of 'user', 'users', 'usergroup', 'channel'"],
    [{}, "/to: must have one of 'user', 'users', 'usergroup', 'channel'"],
    ['U1', "/to: must be an object with one of 'user', 'users', 'usergroup', 'channel', got \"U1\""],
    [
      { user: 'U1', users: ['U2'] },
      "/to: must have only one of 'user', 'users', 'usergroup', 'channel', got 'user' and 'users'",
    ],
  ];

  it.each(WRONG_TO)('name the recipient key at fault: to %j', (to, message) => {
    const base = { message: 'm', requestedSchema: SCHEMA };
    expect(refusal(() => validCreate({ ...base, to }))).toBe(`invalid_request ${message}`);
  });

  it.each(WRONG_TO)('name the recipient key at fault in ask_human too: to %j', (to, message) => {
    const validAsk = validator(ASK_HUMAN_INPUT);
    expect(refusal(() => validAsk({ message: 'm', requestedSchema: SCHEMA, to }))).toBe(
      `invalid_request ${message}`,
    );
  });

  it('take a duration of several units, largest first, as the config does', () => {
    const base = { message: 'm', requestedSchema: SCHEMA, to: { user: 'U1' } };
    expect(validCreate({ ...base, timeout: '1h30m' })).toMatchObject({ timeout: '1h30m' });
    expect(validCreate({ ...base, timeout: '2m 30s' })).toMatchObject({ timeout: '2m 30s' });
    expect(refusal(() => validCreate({ ...base, timeout: '1h30' }))).toBe(
      `invalid_request /timeout: must be ${DURATION_WORDS}, got "1h30"`,
    );
  });

  it('say what a duration is when the timeout is not one', () => {
    const base = { message: 'm', requestedSchema: SCHEMA, to: { user: 'U1' } };
    expect(refusal(() => validCreate({ ...base, timeout: 'soon' }))).toBe(
      `invalid_request /timeout: must be ${DURATION_WORDS}, got "soon"`,
    );
    expect(refusal(() => validCreate({ ...base, timeout: -5 }))).toBe(
      `invalid_request /timeout: must be ${DURATION_WORDS}, got -5`,
    );
  });

  it('coerce the wait query and bound it at 60 seconds', () => {
    const validWait = validator<{ wait?: number }>(WAIT_QUERY, { coerce: true });
    expect(validWait({ wait: '60' })).toEqual({ wait: 60 });
    expect(refusal(() => validWait({ wait: '61' }))).toBe(
      'invalid_request /wait: must be a whole number of seconds from 0 to 60, got 61',
    );
    expect(refusal(() => validWait({ wait: 'soon' }))).toBe(
      'invalid_request /wait: must be a whole number of seconds from 0 to 60, got "soon"',
    );
  });
});
