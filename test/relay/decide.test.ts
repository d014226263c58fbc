// The answering decision as a pure function, for acts on the question as a whole: who may act at all, and the
// buttons and closes that end a question or leave it as it is. Its forms, page by page: decide-forms.test.ts.
import { describe, expect, it } from 'vitest';
import { decide, type Decision, type Situation } from '../../src/answering/decide.js';
import { BACKSTOP_GRACE_MS } from '../../src/relay/grace.js';
import { AGE_COLOR } from '../support/schemas.js';
import { question, situation } from './decide-support.js';

describe('who may act', () => {
  const q = question(AGE_COLOR);
  it.each<[string, Situation, Decision]>([
    [
      'a question that is gone',
      situation(undefined, { kind: 'decline' }),
      { kind: 'refuse', refusal: { ended: 'missing' } },
    ],
    [
      'a click from another workspace',
      situation(q, { kind: 'decline' }, { actor: { user: { id: 'U1' }, team: { id: 'T9' } } }),
      { kind: 'refuse', refusal: { otherWorkspace: true } },
    ],
    [
      'a question that already ended',
      situation({ ...q, state: 'accepted' }, { kind: 'send' }),
      { kind: 'refuse', refusal: { ended: 'accepted' } },
    ],
    [
      'someone who is not among its answerers',
      situation(q, { kind: 'decline' }, { mayAnswer: false }),
      { kind: 'refuse', refusal: { notFor: q } },
    ],
    [
      'an act on a question still pending 5 s past its deadline (its holder has told the server cancel)',
      situation(q, { kind: 'decline' }, { now: q.deadline + BACKSTOP_GRACE_MS }),
      { kind: 'refuse', refusal: { ended: 'cancelled' } },
    ],
  ])('refuses %s', (_, input, expected) => {
    expect(decide(input)).toEqual(expected);
  });

  it('takes an act past the deadline while the timeout job may still end it first', () => {
    const late = situation(q, { kind: 'decline' }, { now: q.deadline + BACKSTOP_GRACE_MS - 1 });
    expect(decide(late)).toEqual({ kind: 'finish', outcome: { action: 'decline' }, reason: 'declined' });
  });
});

describe('ending acts', () => {
  const form = question(AGE_COLOR);
  const link = question(null, { url: { url: 'https://example.com', elicitationId: 'e1' } });
  it.each<[string, Situation, Decision]>([
    [
      'Decline declines',
      situation(form, { kind: 'decline' }),
      { kind: 'finish', outcome: { action: 'decline' }, reason: 'declined' },
    ],
    [
      'the link button of a URL question accepts it',
      situation(link, { kind: 'consent' }),
      { kind: 'finish', outcome: { action: 'accept', content: {} }, reason: 'answered' },
    ],
    [
      'a link click on a form question changes nothing',
      situation(form, { kind: 'consent' }),
      { kind: 'ignore' },
    ],
    [
      'the Cancel button of a 2026 URL card cancels it',
      situation(link, { kind: 'cancel' }),
      { kind: 'finish', outcome: { action: 'cancel' }, reason: 'closed' },
    ],
    [
      'a Cancel click on a form question changes nothing',
      situation(form, { kind: 'cancel' }),
      { kind: 'ignore' },
    ],
    [
      'a form submit on a URL question changes nothing',
      situation(link, { kind: 'send' }),
      { kind: 'ignore' },
    ],
    [
      'closing the form cancels',
      situation(form, { kind: 'close', from: 'form', cleared: false }),
      { kind: 'finish', outcome: { action: 'cancel' }, reason: 'closed' },
    ],
    [
      'closing the form keeps the question open under onClose: keep',
      situation(
        form,
        { kind: 'close', from: 'form', cleared: false },
        { policy: { review: 'never', onClose: 'keep' } },
      ),
      { kind: 'ignore' },
    ],
    [
      'Back on the review returns to the form',
      situation(form, { kind: 'close', from: 'review', cleared: false }),
      { kind: 'ignore' },
    ],
    [
      'the X on the review cancels',
      situation(form, { kind: 'close', from: 'review', cleared: true }),
      { kind: 'finish', outcome: { action: 'cancel' }, reason: 'closed' },
    ],
  ])('%s', (_, input, expected) => {
    expect(decide(input)).toEqual(expected);
  });
});
