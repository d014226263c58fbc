// The claim on a shared registration (src/mcp/auth/registrations.ts) on real Redis, with the clock and the wait
// between re-reads passed in, so a claim's lapse and the bounded wait take no real time: a claimer that died
// is taken over once its claim lapses (not before), and a claim that never lapses for this replica ends the
// wait after WAIT_AT_MOST_MS with a SignInError naming the server instead of a hang.
import { Redis } from 'ioredis';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { Sealer, SignInError, TokenVault } from '../../../src/mcp/index.js';
import {
  RedisClientRegistrations,
  REGISTRATION_CLAIM_MS,
  REREAD_EVERY_MS,
  WAIT_AT_MOST_MS,
  type ClientRegistrations,
  type RegistrationTimers,
} from '../../../src/mcp/auth/registrations.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';

const SERVER = 'tracker';
const ISSUER = 'https://auth.example.com';
const CLIENT = { client_id: 'bot-1', issuer: ISSUER };

let redis: Redis;
let prefix: string;
let vault: TokenVault;
const sealer = new Sealer(Buffer.alloc(32, 5));

beforeAll(() => {
  redis = new Redis(redisUrl());
  prefix = uniquePrefix();
  vault = new TokenVault(redis, prefix, sealer);
});
afterAll(async () => {
  await deleteUnder(prefix);
  await redis.quit();
});

/** A replica's clock, starting at `start` (epoch ms); every wait moves it on by the time waited, at once. */
function clock(start: number): RegistrationTimers & { waited: number[] } {
  let now = start;
  const waited: number[] = [];
  return {
    waited,
    now: () => now,
    sleep: (ms) => {
      waited.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

describe('the claim to register a shared client', () => {
  it('reads the client saved between its read and its claim, instead of registering a second', async () => {
    const issuer = `${ISSUER}/raced`;
    const holder = vault.registrations(SERVER, clock(Date.now()));
    expect(await holder.claim(issuer)).toBeUndefined();
    // The holder saves, ending its claim, right after the other's first read found nothing.
    let saveAfterRead: (() => Promise<void>) | undefined = () => holder.save(issuer, CLIENT);
    const read = async (): ReturnType<ClientRegistrations['find']> => {
      const found = await holder.find(issuer);
      const save = saveAfterRead;
      saveAfterRead = undefined;
      if (save) await save();
      return found;
    };
    const keyPrefix = `${prefix}:auth:client:${SERVER}`;
    const other = new RedisClientRegistrations(redis, keyPrefix, sealer, SERVER, read, clock(Date.now()));
    expect(await other.claim(issuer)).toEqual(CLIENT);
    expect(await redis.exists(`${keyPrefix}:${encodeURIComponent(issuer)}:registering`)).toBe(0);
  });

  it('is taken over once the claim of a sign-in that died lapses, and not before', async () => {
    const start = Date.now();
    const died = vault.registrations(SERVER, clock(start));
    expect(await died.claim(`${ISSUER}/died`)).toBeUndefined();

    const next = clock(start);
    const registrations = vault.registrations(SERVER, next);
    expect(await registrations.claim(`${ISSUER}/died`)).toBeUndefined();
    const waited = next.now() - start;
    expect(waited).toBeGreaterThanOrEqual(REGISTRATION_CLAIM_MS);
    expect(waited).toBeLessThan(REGISTRATION_CLAIM_MS + 2 * REREAD_EVERY_MS);
    expect(new Set(next.waited)).toEqual(new Set([REREAD_EVERY_MS]));

    // The taker's save ends its claim: the next sign-in reads the client at once.
    await registrations.save(`${ISSUER}/died`, CLIENT);
    const third = clock(start + REGISTRATION_CLAIM_MS);
    expect(await vault.registrations(SERVER, third).claim(`${ISSUER}/died`)).toEqual(CLIENT);
    expect(third.waited).toEqual([]);
  });

  it('waits for a live claim and reads the client its holder saves', async () => {
    const start = Date.now();
    const holder = vault.registrations(SERVER, clock(start));
    expect(await holder.claim(`${ISSUER}/live`)).toBeUndefined();
    const waiter = clock(start);
    const saved = vault.registrations(SERVER, {
      now: waiter.now,
      // The holder saves while the other waits its third re-read.
      sleep: async (ms) => {
        await waiter.sleep(ms);
        if (waiter.waited.length === 3) await holder.save(`${ISSUER}/live`, CLIENT);
      },
    });
    expect(await saved.claim(`${ISSUER}/live`)).toEqual(CLIENT);
    expect(waiter.now() - start).toBe(3 * REREAD_EVERY_MS);
  });

  it('gives up after WAIT_AT_MOST_MS with a SignInError naming the server, when the claim never lapses here', async () => {
    const start = Date.now();
    // A replica whose clock runs an hour ahead claimed and died: by this replica's clock its claim lasts an hour.
    const ahead = vault.registrations(SERVER, clock(start + 3_600_000));
    expect(await ahead.claim(`${ISSUER}/skewed`)).toBeUndefined();

    const here = clock(start);
    const failure = await vault
      .registrations(SERVER, here)
      .claim(`${ISSUER}/skewed`)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert(failure instanceof SignInError);
    expect([failure.code, failure.server]).toEqual(['discovery_failed', SERVER]);
    expect(failure.message).toContain(
      `${SERVER}'s authorization server took over ${WAIT_AT_MOST_MS / 1000} s`,
    );
    expect(here.now() - start).toBeGreaterThanOrEqual(WAIT_AT_MOST_MS);
    expect(here.now() - start).toBeLessThan(WAIT_AT_MOST_MS + 2 * REREAD_EVERY_MS);
  });

  it('forgets only the client the authorization server refused, not a newer one', async () => {
    const registrations = vault.registrations(SERVER, clock(Date.now()));
    await registrations.save(`${ISSUER}/forget`, { client_id: 'bot-2', issuer: ISSUER });
    await registrations.forget(`${ISSUER}/forget`, 'bot-1');
    expect(await registrations.find(`${ISSUER}/forget`)).toEqual({ client_id: 'bot-2', issuer: ISSUER });
    await registrations.forget(`${ISSUER}/forget`, 'bot-2');
    expect(await registrations.find(`${ISSUER}/forget`)).toBeUndefined();
  });
});
