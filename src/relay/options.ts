// What a Relay is built from (relay.ts): its store, surface and checks, its clock and its timings.
import type { RelayClock, RelayLogger, RelayObserver, RelayStore, Surface } from './ports.js';
import type { RoundLinkStore } from './round-links.js';

export interface RelayOptions {
  store: RelayStore;
  /** The latest question of each 2026 URL request, shared by the replicas (see round-links.ts). */
  links: RoundLinkStore;
  surface: Surface;
  /** Checks that the form can be rendered; throws RelayError('invalid_schema') when it cannot. */
  checkSchema: (requestedSchema: unknown) => unknown;
  /** Checks that a URL-mode link may be shown; throws RelayError('invalid_url') when it may not. */
  checkUrl: (url: string) => void;
  /** When to nudge (epoch ms), from the time they have and now (both ms) and the server; default reminderTimes without a policy (one at half time). */
  reminderTimes?: (timeoutMs: number, now: number, server: string) => number[];
  /** Extra wait past the deadline before the local backstop ends a question whose timeout job never fired, in ms. Default 5000. */
  backstopGraceMs?: number;
  /** In production systemClock (src/clock.ts). */
  clock: RelayClock;
  logger: RelayLogger;
  observer?: RelayObserver;
  /** Questions started at once, in turns across people (turns.ts); default DEFAULT_STARTS_AT_ONCE. */
  startsAtOnce?: number;
}
