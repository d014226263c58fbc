// A relay over a real QuestionStore as the relay tests build it: the form checks the bot uses, every URL
// allowed, silent logs, the system clock; `extra` sets what a test varies (reminder times, a backstop).
import { systemClock } from '../../src/clock.js';
import { createLogger } from '../../src/logger.js';
import { Relay, type RelayOptions, type Surface } from '../../src/relay/relay.js';
import { checkFormSchema } from '../../src/slack/checks.js';
import type { QuestionStore } from '../../src/store/index.js';

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
