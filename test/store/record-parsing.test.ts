import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { parseQuestion, toHash } from '../../src/store/record.js';
import { question } from '../support/question.js';

const pending: Question = question({
  id: 'abc',
  server: 'fixture',
  origin: { userId: 'U1', teamId: 'T1', channelId: 'C9', threadTs: '1700000000.000100' },
  message: 'Pick one',
  timeoutMs: 1000,
  holder: 'h1',
  createdAt: 1_700_000_000_000,
  deadline: 1_700_000_001_000,
});

describe('stored question records', () => {
  it('read back exactly what was written, card, outcome and who ended it when included', () => {
    expect(parseQuestion(toHash(pending))).toEqual(pending);
    const finished = {
      ...toHash(pending),
      state: 'accepted',
      outcome: JSON.stringify({ action: 'accept', content: { n: 2, tags: ['a'], ok: false } }),
      reason: 'answered',
      endedAt: '1700000000500',
      endedBy: 'U3',
      cardChannel: 'D1',
      cardTs: '1.2',
    };
    expect(parseQuestion(finished)).toEqual({
      ...pending,
      state: 'accepted',
      outcome: { action: 'accept', content: { n: 2, tags: ['a'], ok: false } },
      reason: 'answered',
      endedAt: 1_700_000_000_500,
      endedBy: 'U3',
      card: { channel: 'D1', ts: '1.2' },
    });
  });

  it('keep an Automations question’s source, and read a record without one as an MCP question', () => {
    const fromApi: Question = { ...pending, source: 'api' };
    expect(toHash(fromApi).source).toBe('api');
    expect(parseQuestion(toHash(fromApi))).toEqual(fromApi);
    expect(toHash({ ...pending, source: 'mcp' })).not.toHaveProperty('source');
    expect(() => parseQuestion({ ...toHash(pending), source: 'sms' })).toThrow(/"source"/);
  });

  it('keep the server’s name and version and who may answer', () => {
    const routed: Question = {
      ...pending,
      serverInfo: { name: 'elicit-fixture', version: '1.0.0', title: 'Elicit Fixture' },
      answerers: { users: ['U1', 'U2'], groups: [{ id: 'S1', members: ['U3'] }], channel: 'C9' },
    };
    expect(parseQuestion(toHash(routed))).toEqual(routed);
    expect(() =>
      parseQuestion({ ...toHash(pending), answerers: '{"users":["U1"],"groups":["S1"]}' }),
    ).toThrow(expect.objectContaining({ code: 'bad_record' }));
  });

  it('give records written before origins were stored their person as the origin', () => {
    const legacy = Object.fromEntries(
      Object.entries(toHash(pending)).filter(([field]) => field !== 'origin'),
    );
    expect(parseQuestion(legacy)?.origin).toEqual({ userId: 'U1' });
  });

  it('treat an empty hash as no question', () => {
    expect(parseQuestion({})).toBeUndefined();
  });

  it.each([
    ['a missing field', { ...toHash(pending), message: undefined }],
    ['a non-integer time', { ...toHash(pending), deadline: '12.5' }],
    ['an unknown state', { ...toHash(pending), state: 'answered' }],
    ['schema that is not JSON', { ...toHash(pending), requestedSchema: '{' }],
    ['a finished record without outcome', { ...toHash(pending), state: 'declined', reason: 'declined' }],
    [
      'an accept without content',
      { ...toHash(pending), state: 'accepted', reason: 'answered', outcome: '{"action":"accept"}' },
    ],
    [
      'content of the wrong shape',
      {
        ...toHash(pending),
        state: 'accepted',
        reason: 'answered',
        outcome: '{"action":"accept","content":{"x":{}}}',
      },
    ],
    ['an origin without its user', { ...toHash(pending), origin: '{"channelId":"C1"}' }],
    ['an origin with a non-string place', { ...toHash(pending), origin: '{"userId":"U1","threadTs":1.5}' }],
    ['other cards without a ts', { ...toHash(pending), moreCards: '[{"channel":"G2"}]' }],
    ['several places with a non-string person', { ...toHash(pending), place: '{"mpims":[["U1"],[2]]}' }],
    [
      'an unknown reason',
      { ...toHash(pending), state: 'declined', reason: 'bored', outcome: '{"action":"decline"}' },
    ],
  ])('reject %s with bad_record', (_, hash) => {
    const defined = Object.fromEntries(Object.entries(hash).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    expect(() => parseQuestion(defined)).toThrow(
      expect.objectContaining({ name: 'StoreError', code: 'bad_record' }),
    );
  });
});
