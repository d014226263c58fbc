// ELICIT_RELAY_REPLICA_LEASE: how long a replica's lease holds without renewal before the others take over its
// work. Unset or empty: the default (15 s, left to the store and the rounds). From 3 s to 120 s; anything else
// stops start-up naming the setting and saying how to write it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const leaseOf = (value: string | undefined) =>
  loadConfig({ env: { ELICIT_RELAY_REPLICA_LEASE: value }, readFile: () => undefined }).replicaLeaseMs;

describe('ELICIT_RELAY_REPLICA_LEASE', () => {
  it.each([
    ['5s', 5_000],
    ['3s', 3_000],
    ['2m', 120_000],
    ['1m30s', 90_000],
    ['4500', 4_500],
  ])('reads %j as %i ms', (value, ms) => {
    expect(leaseOf(value)).toBe(ms);
  });

  it.each([undefined, ''])('is the default for %j', (value) => {
    expect(leaseOf(value)).toBeUndefined();
  });

  it.each(['0', '2999ms', '2s', '121s', '1h', 'soon', '-5s', '5 seconds'])(
    'refuses %j naming the setting and the fix',
    (value) => {
      const error = configErrorOf(() => leaseOf(value));
      expect(error.key).toBe('ELICIT_RELAY_REPLICA_LEASE');
      expect(error.code).toBe('invalid_config');
      expect(error.message).toContain(`"${value}" is not a duration from 3s to 120s`);
      expect(error.message).toContain('Write a duration such as "15s"');
    },
  );
});
