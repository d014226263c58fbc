// A holder stopping while its inbox acknowledges a batch logs no failure: the ack's script was sent, and Redis
// runs it whatever the client does (the loaded bench's run logged "inbox: ack failed" at such a stop). The
// inbox reads through a TCP proxy that holds Redis's replies from the moment the batch is handed over, so the
// stop lands while the ack's reply is on its way.
import { afterEach, describe, expect, it } from 'vitest';
import { RedisConnections, keys } from '../../src/redis/index.js';
import { Inbox } from '../../src/store/inbox.js';
import { withScripts } from '../../src/store/scripts.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deferred } from '../support/deferred.js';
import { newQuestion, openStore, rawRedis, recordingLogger } from './helpers.js';
import { startProxy, type TcpProxy } from './tcp-proxy.js';

let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe('an inbox stopped while it acknowledges a batch', () => {
  it('logs nothing, and the batch is acknowledged all the same', async () => {
    const prefix = uniquePrefix();
    const k = keys(prefix);
    proxy = await startProxy(redisUrl());
    const logger = recordingLogger();
    const redis = withScripts(await new RedisConnections({ url: proxy.url }, logger).blocking('inbox-stop'));
    const ackSent = deferred<() => void>();
    const deps = {
      redis,
      streamKey: k.inbox('holder-a'),
      questionKey: (id: string) => k.question(id),
      schemaPrefix: k.schema(''),
      logger,
    };
    const inbox = new Inbox(deps, () => {
      // Handed over: the ack goes next, and its reply is held.
      const held = proxy?.holdReplies();
      void held?.arrived.then(() => ackSent.resolve(() => held.release()));
    });
    inbox.start();
    const holder = await openStore(prefix, 'holder-a');
    const answerer = await openStore(prefix, 'holder-b');
    const question = await holder.create(newQuestion());
    await answerer.finish(question.id, { action: 'decline' }, 'declined');

    const release = await ackSent.promise;
    await inbox.stop();
    release();
    expect(logger.logged).toEqual([]);
    expect(await rawRedis().xlen(k.inbox('holder-a'))).toBe(0);
  });
});
