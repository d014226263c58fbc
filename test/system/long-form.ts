// A form too long for one modal (25 text fields, 20 to a page), and the input blocks of a view showing it:
// shared by the paging tests.
import type { Harness } from './harness.js';

export const LONG_FORM = {
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: 25 }, (_, i) => [`q${i + 1}`, { type: 'string', title: `Question ${i + 1}` }]),
  ),
  required: ['q1', 'q25'],
};

export type Block = {
  type: string;
  block_id: string;
  label?: { text: string };
  element?: { initial_value?: string };
};

/** The input blocks of view `viewId` as the stand-in holds it. */
export const inputs = (h: Harness, viewId: string): Block[] =>
  ((h.standin.view(viewId)?.view.blocks ?? []) as Block[]).filter((b) => b.type === 'input');
