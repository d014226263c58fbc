// Issue #19 goal 3's raw floor: the same lifecycle as bench/lifecycle.ts written directly against Redis with
// plain ioredis, no store: the record with its deadline (one script: HSET + ZADD into a deadline index), one
// CAS script that also queues the delivery (XADD to the holder's inbox stream), and one blocking read by the
// holder (XREAD). Three round trips; what it leaves out is what the store adds for its guarantees (the BullMQ
// timer per deadline slot, pending indexes, the ended stream, the inbox acknowledgement).
import { Redis } from 'ioredis';
import type { Flow } from './lifecycle.js';

// KEYS[1] record  KEYS[2] deadline zset; ARGV[1] id  ARGV[2] timeout ms  ARGV[3] JSON body.
const CREATE = `
local t = redis.call('TIME')
local deadline = t[1] * 1000 + math.floor(t[2] / 1000) + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'state', 'pending', 'deadline', deadline, 'body', ARGV[3])
redis.call('ZADD', KEYS[2], deadline, ARGV[1])
return deadline
`;

// KEYS[1] record  KEYS[2] holder's inbox  KEYS[3] deadline zset; ARGV[1] id  ARGV[2] state  ARGV[3] outcome.
const FINISH = `
if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'outcome', ARGV[3])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('XADD', KEYS[2], '*', 'id', ARGV[1], 'outcome', ARGV[3])
return 1
`;

const BODY = JSON.stringify({
  message: 'Benchmark question',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});

/** The raw lifecycle under `prefix` (keys `<prefix>:raw:*`), with its own three connections. */
export async function rawFlow(url: string, prefix: string): Promise<Flow> {
  const [holder, other, reader] = [new Redis(url), new Redis(url), new Redis(url)];
  const inbox = `${prefix}:raw:inbox`;
  const deadlines = `${prefix}:raw:deadlines`;
  const waiting = new Map<string, () => void>();
  let running = true;
  let lastId = '$';
  const readLoop = async (): Promise<void> => {
    while (running) {
      const reply = await reader.xread('COUNT', 1000, 'BLOCK', 1000, 'STREAMS', inbox, lastId);
      for (const [, entries] of reply ?? []) {
        for (const [entryId, fields] of entries) {
          lastId = entryId;
          waiting.get(fields[1] ?? '')?.();
        }
      }
    }
  };
  await reader.ping();
  const loop = readLoop().catch(() => undefined);
  let next = 0;
  return {
    cycle: async () => {
      const id = `q${next++}`;
      const record = `${prefix}:raw:q:${id}`;
      await holder.eval(CREATE, 2, record, deadlines, id, 600_000, BODY);
      const delivered = new Promise<void>((resolve) => waiting.set(id, resolve));
      await other.eval(FINISH, 3, record, inbox, deadlines, id, 'accepted', '{"action":"accept"}');
      await delivered;
      waiting.delete(id);
    },
    close: async () => {
      running = false;
      reader.disconnect();
      await loop;
      holder.disconnect();
      other.disconnect();
    },
  };
}
