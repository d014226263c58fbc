// A start-up that a stop signal can end (SIGTERM, or Ctrl-C on `npm start`, which signals the bot's stdio MCP
// servers with it). Without it a signal during start-up waited for the whole start-up (Slack's auth.test, a
// slow Redis) before the stop began, and the MCP servers exiting on the signal meanwhile were warned about,
// reconnected and counted as failures. The composition root (src/main.ts) calls step() before each part and
// hands onStop() what must hear of the stop at its first moment (the MCP hub's closing()).
import { Lifecycle, LifecycleError } from './lifecycle.js';

/** How a start-up ended by its stop signal ended: every part it started stopped, or one failed to stop. */
export type StartStoppedCode = 'stopped_during_start' | 'stop_failed';

/** start() ended by its stop signal instead of starting; with 'stop_failed' `cause` is the LifecycleError. */
export class StartStoppedError extends Error {
  override name = 'StartStoppedError';
  constructor(
    readonly code: StartStoppedCode,
    options?: { cause: LifecycleError },
  ) {
    super(
      code === 'stop_failed'
        ? 'stopped during start-up; some parts failed to stop'
        : 'stopped during start-up',
      options,
    );
  }
}

/** The start-up's side of its stop signal, given to the code that starts the parts. */
export class StartUp {
  private readonly hearers: (() => void)[] = [];

  constructor(private readonly signal: AbortSignal | undefined) {
    signal?.addEventListener('abort', () => this.tell(), { once: true });
  }

  /** True once the stop signal came. */
  get stopped(): boolean {
    return this.signal?.aborted ?? false;
  }

  /** `hear` is told of the stop at its first moment (at once when it came already), before any part stops. */
  onStop(hear: () => void): void {
    if (this.stopped) hear();
    else this.hearers.push(hear);
  }

  /** Throws StartStoppedError once the stop came: from then on no part is started (nor readiness turned on). */
  check(): void {
    if (this.stopped) throw new StartStoppedError('stopped_during_start');
  }

  /** Starts the next part, unless the stop came (check()). */
  step<T>(startPart: () => T): T {
    this.check();
    return startPart();
  }

  private tell(): void {
    for (const hear of this.hearers.splice(0)) hear();
  }
}

export interface StoppableStartOptions {
  /** Ends the start-up: the parts started so far are stopped and the start rejects with StartStoppedError. */
  signal?: AbortSignal;
  logger: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * Runs `startParts`, each part pushing how to stop it onto `parts` as it starts. When a part fails to start,
 * the ones before it are stopped and the failure thrown. When the stop signal comes first, the parts started
 * so far are stopped at once, without waiting for the one starting then (it may wait on Slack or Redis until
 * their timeouts); what that one still starts is stopped once it settled.
 */
export async function startStoppable<T>(
  options: StoppableStartOptions,
  startParts: (parts: Lifecycle, startUp: StartUp) => Promise<T>,
): Promise<T> {
  const { logger } = options;
  const parts = new Lifecycle({ logger });
  const startUp = new StartUp(options.signal);
  const starting = startParts(parts, startUp);
  const signalled = new Promise<undefined>((resolve) => startUp.onStop(() => resolve(undefined)));
  let up: { value: T } | undefined;
  try {
    up = await Promise.race([starting.then((value) => ({ value })), signalled]);
  } catch (error) {
    // A part that failed to start leaves the ones before it running: stop those, then report the failure.
    await parts.stop().catch((err: unknown) => logger.error({ err }, 'stopping after a failed start'));
    throw error;
  }
  if (up !== undefined) return up.value;
  return stopDuringStart(parts, starting, logger);
}

/** The stop came during start-up: stops what started, then what the part under way still starts. */
async function stopDuringStart(
  parts: Lifecycle,
  starting: Promise<unknown>,
  logger: StoppableStartOptions['logger'],
): Promise<never> {
  const stopping = parts.stop();
  // After the first stop, so each part still stops in reverse order; the start-up's end is no one's to report.
  void Promise.allSettled([stopping, starting])
    .then(() => parts.stop())
    .catch((err: unknown) => logger.error({ err }, 'stopping what start-up started after the stop'));
  try {
    await stopping;
  } catch (error) {
    if (error instanceof LifecycleError) throw new StartStoppedError('stop_failed', { cause: error });
    throw error;
  }
  throw new StartStoppedError('stopped_during_start');
}
