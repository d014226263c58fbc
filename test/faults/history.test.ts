// The history checker itself: each invariant it guards is reported when broken, and a clean run is clean.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { History } from './support/history.js';
import { question as pendingQuestion } from '../support/question.js';

function question(id: string): Question {
  return pendingQuestion({
    id,
    server: 's',
    message: 'm',
    requestedSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    timeoutMs: 1_000,
    createdAt: 10_000,
    deadline: 11_000,
  });
}

describe('history checker', () => {
  it('passes a run where each question got one valid response, shown on its card and stored in time', () => {
    const h = new History();
    h.created(question('q1'));
    h.response('q1', { action: 'accept', content: { n: 1 } });
    h.card('q1', { action: 'accept', content: { n: 1 } });
    h.ended('q1', { endedAt: 10_500, outcome: { action: 'accept', content: { n: 1 } } });
    expect(h.check({ graceMs: 0 })).toEqual([]);
  });

  it('reports two responses, none, a late end, invalid content and a card or record that disagrees', () => {
    const h = new History();
    for (const id of ['double', 'silent', 'late', 'invalid', 'mismatch']) h.created(question(id));
    h.response('double', { action: 'decline' });
    h.response('double', { action: 'cancel' });
    h.ended('double', { endedAt: 10_500, outcome: { action: 'decline' } });
    h.response('late', { action: 'cancel' });
    h.ended('late', { endedAt: 11_000 + 5_001, outcome: { action: 'cancel' } });
    h.response('invalid', { action: 'accept', content: { n: 'one' } });
    h.ended('invalid', { endedAt: 10_500, outcome: { action: 'accept', content: { n: 'one' } } });
    h.response('mismatch', { action: 'decline' });
    h.card('mismatch', { action: 'cancel' });
    h.ended('mismatch', { endedAt: 10_500, outcome: { action: 'cancel' } });
    expect(h.check({ graceMs: 5_000 })).toEqual([
      'double: 2 MCP responses',
      'silent: 0 MCP responses',
      'silent: never ended in Redis',
      'late: ended 5001 ms after its deadline (grace 5000 ms)',
      'invalid: accepted invalid content {"n":"one"}',
      'mismatch: MCP got {"action":"decline"} but the card shows {"action":"cancel"}',
      'mismatch: MCP got {"action":"decline"} but Redis stored {"action":"cancel"}',
    ]);
  });

  it('compares only the action with a record whose accepted content was dropped after delivery', () => {
    const h = new History();
    h.created(question('kept'));
    h.created(question('wrong'));
    h.response('kept', { action: 'accept', content: { n: 1 } });
    h.ended('kept', { endedAt: 10_500, outcome: { action: 'accept', content: {} }, contentDropped: true });
    h.response('wrong', { action: 'decline' });
    h.ended('wrong', { endedAt: 10_500, outcome: { action: 'accept', content: {} }, contentDropped: true });
    expect(h.check({ graceMs: 0 })).toEqual([
      'wrong: MCP got {"action":"decline"} but Redis stored {"action":"accept","content":{}}',
    ]);
  });

  it('reports a timeout before the deadline, and not an earlier answer or a timeout at the deadline', () => {
    const h = new History();
    for (const id of ['early', 'answered', 'onTime']) h.created(question(id));
    h.response('early', { action: 'cancel' });
    h.ended('early', { endedAt: 10_999, outcome: { action: 'cancel' }, reason: 'timed_out' });
    h.response('answered', { action: 'decline' });
    h.ended('answered', { endedAt: 10_500, outcome: { action: 'decline' }, reason: 'declined' });
    h.response('onTime', { action: 'cancel' });
    h.ended('onTime', { endedAt: 11_000, outcome: { action: 'cancel' }, reason: 'timed_out' });
    expect(h.check({ graceMs: 5_000 })).toEqual(['early: timed out 1 ms before its deadline']);
  });
});
