// ELICIT_RELAY_SHUTDOWN_DELAY: how long a stop keeps serving with /readyz at 503 before it stops anything. Unset,
// empty or 0: no delay (a stop goes on at once, as before the setting). It is spent inside the stop's 20 s, so
// at most 10 s; anything else stops start-up naming the setting.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const delayOf = (value: string | undefined) =>
  loadConfig({ env: { ELICIT_RELAY_SHUTDOWN_DELAY: value }, readFile: () => undefined }).shutdownDelayMs;

describe('ELICIT_RELAY_SHUTDOWN_DELAY', () => {
  it.each([
    ['5s', 5_000],
    ['10s', 10_000],
    ['1500ms', 1_500],
    ['2500', 2_500],
    ['1s500ms', 1_500],
  ])('reads %j as %i ms', (value, ms) => {
    expect(delayOf(value)).toBe(ms);
  });

  it.each([undefined, '', '0', '0s'])('is no delay for %j', (value) => {
    expect(delayOf(value)).toBeUndefined();
  });

  it.each(['soon', '-5s', '5 seconds', '11s', '1m', '10001'])('refuses %j naming the setting', (value) => {
    const error = configErrorOf(() => delayOf(value));
    expect(error.key).toBe('ELICIT_RELAY_SHUTDOWN_DELAY');
    expect(error.message).toContain(`"${value}" is not a duration from 0 to 10s`);
  });
});
