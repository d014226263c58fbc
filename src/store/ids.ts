// Question ids (and slot job gens): 20 url-safe characters whose order is their creation order.
import { randomFillSync } from 'node:crypto';

/**
 * The 64 url-safe characters in ASCII order, so ids compare as the numbers they encode (base64url's alphabet is
 * not in ASCII order: its 'A' is 0 and its '-' is 62).
 */
const SORTED_ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** Random bytes per id after the 6 of its clock: 72 random bits. */
const RANDOM_BYTES = 9;
/**
 * Random bytes for the next 256 ids, drawn at once and handed out in order (never reused): one CSPRNG call per
 * 256 ids instead of one per id, which cost ~3% of a create's CPU (issue #19 goal 3).
 */
const pool = Buffer.alloc(RANDOM_BYTES * 256);
let poolAt = pool.length;
/**
 * Added to the clock (ms) so an id starts with a letter ('V' until the year 2109), never with '-' (read as an
 * option by a command line) nor as all digits (refused by BullMQ as a job id).
 */
const CLOCK_OFFSET = 2 ** 47;
const TWO_24 = 2 ** 24;

/** Four characters for 24 bits. */
const quad = (n: number): string =>
  SORTED_ALPHABET.charAt(n >>> 18) +
  SORTED_ALPHABET.charAt((n >>> 12) & 63) +
  SORTED_ALPHABET.charAt((n >>> 6) & 63) +
  SORTED_ALPHABET.charAt(n & 63);

/**
 * A new id: the creating process's clock (ms, 48 bits) then 72 random bits, 120 bits in all. The due index
 * orders the questions of one deadline by id, so a burst of them is handed over in the order they were created,
 * which is the order their records lie in Redis's memory: handed over in random order, each finish cost Redis
 * ~15 % more (cache misses in the record and its index entries; issue #19 goal 4a). Clocks of replicas may
 * disagree: that costs only the order, never an id's uniqueness (the random bits).
 */
export function newId(now: number = Date.now()): string {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const clock = now + CLOCK_OFFSET;
  let id = quad(Math.floor(clock / TWO_24)) + quad(clock % TWO_24);
  for (let i = 0; i < RANDOM_BYTES; i += 3, poolAt += 3) {
    id += quad(((pool[poolAt] ?? 0) << 16) | ((pool[poolAt + 1] ?? 0) << 8) | (pool[poolAt + 2] ?? 0));
  }
  return id;
}
