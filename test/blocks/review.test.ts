import { describe, expect, it } from 'vitest';
import { approvesSomething, reviewModal, reviewedContent } from '../../blocks/review.js';
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

  it('carries exactly the answers it shows, read back from its private_metadata', () => {
    const view = reviewModal(form({ n: { type: 'integer' } }), {
      questionId: 'q1',
      server: 's',
      content: { n: 2 },
    });
    expect(reviewedContent(view as { private_metadata: string })).toEqual({ n: 2 });
    expect(reviewedContent({ private_metadata: '{"q":"q1"}' })).toBeUndefined();
  });

  it('is skipped when the answers do not fit in private_metadata', () => {
    const long = { t: 'x'.repeat(3000) };
    expect(
      reviewModal(form({ t: { type: 'string' } }), { questionId: 'q', server: 's', content: long }),
    ).toBe(undefined);
  });
});
