// A refused click on an App Home button opens a modal with the reason while the Home is refreshed. A refresh
// that fails meanwhile (Redis not answering, the very case that makes the click's note "not recorded") must not
// be an unhandled rejection, which would end a Node 20 process.
import { afterEach, describe, expect, it } from 'vitest';
import { decline, type ButtonArgs } from '../../src/slack/listeners/actions/question-buttons.js';
import type { ListenerDeps } from '../../src/slack/listeners/deps.js';
import type { Reply } from '../../src/answering/service.js';

const unhandled: unknown[] = [];
const record = (reason: unknown): void => void unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', record);
  unhandled.splice(0);
});

const later = <T>(ms: number, value: T): Promise<T> => new Promise((r) => setTimeout(() => r(value), ms));

describe('a refused click on an App Home button while Redis does not answer', () => {
  it('leaves no rejection of the Home refresh unhandled', async () => {
    process.on('unhandledRejection', record);
    const refreshFailure = new Error('Redis is not answering (pendingFor)');
    const deps = {
      answering: {
        act: async (
          _id: string,
          _body: unknown,
          _act: unknown,
          opts: { reply(reply: Reply): Promise<void> },
        ) => {
          await opts.reply({ kind: 'not_recorded' });
        },
      },
      home: { refresh: () => Promise.reject(refreshFailure) },
      surface: {
        locales: { within: () => later(50, 'en' as const), of: () => Promise.resolve('en' as const) },
      },
    } as unknown as ListenerDeps;
    const args = {
      ack: () => Promise.resolve(),
      body: { user: { id: 'U1' }, team: { id: 'T1' }, trigger_id: 'trig-1', view: { type: 'home' } },
      action: { value: 'q_1' },
      respond: () => Promise.resolve(),
      client: { views: { open: () => later(300, { ok: true }) } },
    } as unknown as ButtonArgs;

    const outcome = await decline(args, deps).then(
      () => 'done',
      (error: unknown) => error,
    );
    // Let Node report any rejection left without a handler.
    await later(50, undefined);
    expect(outcome === 'done' || outcome === refreshFailure).toBe(true);
    expect(unhandled).toEqual([]);
  });
});
