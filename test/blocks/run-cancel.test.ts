// The Cancel button of a run's "working…" message: its value names the run and its owner, read back whatever a
// forged value holds; the cancelled message in English and Chinese.
import { describe, expect, it } from 'vitest';
import { CANCEL_RUN_ACTION, progressMessage, runCancelTargetOf } from '../../blocks/index.js';

describe('the Cancel button of a run', () => {
  const cancel = { run: 'r-123', owner: 'U1' };

  it('rides on the working message, carrying the run and its owner', () => {
    const message = progressMessage({ server: 'fixture', tool: 'build', cancel });
    const button = JSON.stringify(message.blocks.at(-1));
    expect(button).toContain(`"action_id":"${CANCEL_RUN_ACTION}"`);
    expect(button).toContain('"style":"danger"');
    const value = (message.blocks.at(-1) as { elements: { value: string }[] }).elements[0]?.value;
    expect(runCancelTargetOf(value)).toEqual(cancel);
  });

  it('goes once the call is done, finished, failed or cancelled', () => {
    for (const done of ['finished', 'failed', 'cancelled'] as const) {
      expect(
        JSON.stringify(progressMessage({ server: 'fixture', tool: 'build', cancel, done })),
      ).not.toContain(CANCEL_RUN_ACTION);
    }
  });

  it('says who cancelled the run, in the person’s language', () => {
    const en = progressMessage({ server: 'fixture', tool: 'build', cancel, done: 'cancelled' });
    expect(en.text).toBe('build on fixture was cancelled by <@U1>.');
    expect(JSON.stringify(en.blocks)).toContain(':no_entry_sign:');
    const zh = progressMessage({
      server: 'fixture',
      tool: 'build',
      cancel,
      done: 'cancelled',
      locale: 'zh-CN',
    });
    expect(zh.text).toBe('<@U1> 已取消 fixture 上的 build。');
  });

  it('reads no run from a value that does not name one', () => {
    for (const value of [
      undefined,
      '',
      'nope',
      '{}',
      '{"r":"","u":"U1"}',
      '{"r":1,"u":"U1"}',
      '{"r":"x"}',
      '[]',
    ]) {
      expect(runCancelTargetOf(value)).toBeUndefined();
    }
  });
});
