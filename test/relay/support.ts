// A relay over a real QuestionStore as the relay tests build it: the form checks the bot uses, every URL
// allowed, silent logs, the system clock; `extra` sets what a test varies (reminder times, a backstop). And the
// stores under it, on the test Redis, closed after each test.
import { afterEach } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createLogger } from '../../src/logger.js';
import { Relay, type RelayOptions, type Surface } from '../../src/relay/relay.js';
import { checkFormSchema } from '../../src/slack/checks.js';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

/** A store logger that says nothing. */
export const silent = { error: () => undefined, warn: () => undefined, info: () => undefined };

/**
 * Call once at a file's top level: opens QuestionStores on the test Redis, each closed after the test that opened
 * it. `open(holderId, prefix)` holds as `holderId` (default 'holder-a') under `prefix` (default a new one).
 */
export function storesClosedAfterEach(): (holderId?: string, prefix?: string) => Promise<QuestionStore> {
  const stores: QuestionStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  return async (holderId = 'holder-a', prefix = uniquePrefix()) => {
    const store = await QuestionStore.open({ url: redisUrl(), prefix, holderId, logger: silent });
    stores.push(store);
    return store;
  };
}

export function relayOver(store: QuestionStore, surface: Surface, extra: Partial<RelayOptions> = {}): Relay {
  return new Relay({
    store,
    links: store.roundLinks(),
    surface,
    checkSchema: checkFormSchema,
    checkUrl: () => undefined,
    logger: createLogger('silent'),
    clock: systemClock,
    ...extra,
  });
}
