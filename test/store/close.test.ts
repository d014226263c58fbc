import { describe, expect, it } from 'vitest';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { handlesAddedSince, liveHandles } from '../support/handles.js';
import { newQuestion, recordingLogger } from './helpers.js';

describe('close', () => {
  it('stops the worker, the inbox and every connection, leaving no handle behind', async () => {
    const before = liveHandles();
    const store = await QuestionStore.open({
      url: redisUrl(),
      prefix: uniquePrefix(),
      holderId: 'holder-a',
      logger: recordingLogger(),
    });
    await store.startTimeouts(() => Promise.resolve());
    await store.startInbox(() => undefined);
    const q = await store.create(newQuestion());
    await store.finish(q.id, { action: 'decline' }, 'declined');
    expect(handlesAddedSince(before)).not.toEqual([]);

    await store.close();
    expect(handlesAddedSince(before)).toEqual([]);
  });

  it('leaves no handle behind after a failed open', async () => {
    const before = liveHandles();
    await expect(
      QuestionStore.open({ url: 'redis://127.0.0.1:1', prefix: uniquePrefix(), holderId: 'h' }),
    ).rejects.toMatchObject({ code: 'redis_unavailable' });
    expect(handlesAddedSince(before)).toEqual([]);
  });
});
