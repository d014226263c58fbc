import { describe, expect, it } from 'vitest';
import { approvesSomething, reviewModal } from '../../blocks/review.js';
import { parseFormSchema } from '../../blocks/schema.js';

const form = (properties: object) => parseFormSchema({ type: 'object', properties });

describe('the review step', () => {
  it('is wanted (review: auto) for forms with a yes/no field named or titled like confirm or approve', () => {
    expect(approvesSomething(form({ approve: { type: 'boolean' } }))).toBe(true);
    expect(approvesSomething(form({ ok: { type: 'boolean', title: 'I confirm the refund' } }))).toBe(true);
    expect(approvesSomething(form({ x: { type: 'boolean', title: '批准发布' } }))).toBe(true);
    expect(approvesSomething(form({ agree: { type: 'boolean', title: 'I agree to the terms' } }))).toBe(
      false,
    );
    expect(approvesSomething(form({ subscribe: { type: 'boolean' } }))).toBe(false);
    expect(approvesSomething(form({ approver: { type: 'string' } }))).toBe(false);
  });

  it('shows the answers but carries only the question id in private_metadata, never an answer', () => {
    const view = reviewModal(form({ password: { type: 'string' }, n: { type: 'integer' } }), {
      questionId: 'q1',
      server: 's',
      content: { password: 'hunter2', n: 2 },
    });
    expect(view).toMatchObject({ private_metadata: '{"q":"q1"}' });
    expect(JSON.stringify(view)).toContain('*n*: 2');
  });

  it('is shown however long the answers are (they are not carried in the view)', () => {
    const long = { t: 'x'.repeat(3000) };
    const view = reviewModal(form({ t: { type: 'string' } }), {
      questionId: 'q',
      server: 's',
      content: long,
    });
    expect(view).toMatchObject({ private_metadata: '{"q":"q"}' });
  });
});
