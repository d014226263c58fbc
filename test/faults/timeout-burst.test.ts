// Issue 15.6: a hostile server opens a burst of questions through one tool call, all with the same short
// timeout, and nobody answers. Each must end exactly once with cancel, none before its deadline, and every one
// within the bound README promises (deadline + TIMEOUT_BOUND_MS), both in Redis and as the server sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/relay/types.js';
import { redisUrl } from '../setup/context.js';
import { startHarness, type Harness } from '../system/harness.js';
import { History } from './support/history.js';
import { Records } from './support/records.js';

/** Questions in the burst (the issue saw 1 000 and 2 000 go late). */
const BURST = 1_000;
/** README: a question times out at its deadline, and under a burst of 1 000 due at once within 5 s after it. */
const TIMEOUT_BOUND_MS = 5_000;
/** How long creating the burst, its timeout and the tool's answer may take altogether, in ms. */
const RUN_WITHIN_MS = 120_000;

let h: Harness;
let records: Records;

beforeAll(async () => {
  h = await startHarness({ timeout: '5s', policy: { maxPending: null, ratePerMinute: null } });
  records = new Records(redisUrl(), h.prefix);
});

afterAll(async () => {
  records.close();
  await h.close();
});

/**
 * Runs the fixture's flood tool and resolves with its answers (in order) and when Slack got them: output this
 * long comes as a file, shared once the upload completes.
 */
async function flood(count: number): Promise<{ answers: Outcome[]; answeredAt: number }> {
  await h.driver.slashCommand({
    userId: 'U1',
    command: '/mcp',
    text: `run fixture flood {"count": ${count}}`,
  });
  const channel = h.standin.dmChannelOf('U1');
  const shared = await h.standin.waitForCall(
    'files.completeUploadExternal',
    (c) => c.ok && c.args.channel_id === channel,
    RUN_WITHIN_MS,
  );
  const message = h.standin.messagesIn(channel).find((m) => m.files !== undefined);
  const content = h.standin.file(String(message?.files?.[0]?.id))?.content ?? '';
  return { answers: JSON.parse(content) as Outcome[], answeredAt: shared.at };
}

describe(`a burst of ${BURST} questions from one call with a 5 s timeout, unanswered`, () => {
  it(
    'ends each exactly once as a timeout, none early, all within the documented bound',
    async () => {
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
      process.on('warning', onWarning);
      const { answers, answeredAt } = await flood(BURST).finally(() => process.off('warning', onWarning));
      // No emitter gathers a listener per question (#15.13: the outbox queue, the call's signal, the stdio pipe).
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
      expect(answers).toHaveLength(BURST);
      expect(answers.filter((a) => a.action !== 'cancel')).toEqual([]);

      const ids = await records.ids();
      expect(ids).toHaveLength(BURST);
      const history = new History();
      await records.into(history, ids);
      // The tool answers once every question has its answer: each got exactly one, its cancel.
      for (const id of ids) history.response(id, { action: 'cancel' });
      expect(history.check({ graceMs: TIMEOUT_BOUND_MS })).toEqual([]);
      // Nobody answered, so no question may end before its deadline, whatever ended it: the timeout, or
      // (at the deadline too) the outbox giving up on a card still queued behind the channel's pace.
      const questions = await Promise.all(ids.map((id) => records.question(id)));
      const early = [];
      for (const q of questions) {
        const endedAt = (await records.endedAt(q.id)) ?? Number.NaN;
        if (!(endedAt >= q.deadline)) early.push(`${q.id} ${q.reason ?? '?'} ${endedAt - q.deadline} ms`);
      }
      expect(early).toEqual([]);
      expect(questions.filter((q) => q.reason !== 'timed_out' && q.reason !== 'delivery_failed')).toEqual([]);
      // The server had every cancel within the bound too (the stand-in and Redis share this host's clock).
      const lastDeadline = Math.max(...questions.map((q) => q.deadline));
      expect(answeredAt - lastDeadline).toBeLessThan(TIMEOUT_BOUND_MS);
    },
    RUN_WITHIN_MS + 30_000,
  );
});
