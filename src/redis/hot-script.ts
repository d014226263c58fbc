// A Lua script on the hot path (a question's create and finish), sent by EVALSHA on the client itself instead of
// through ioredis's defineCommand wrapper, whose per-call extras (a copy of the arguments, a second promise and a
// closure per call) cost ~6 µs of the holder's CPU per lifecycle (issue #19 goal 3; BENCHMARKS.md, stop 44).
// A Redis that lacks the script (restarted, failed over, SCRIPT FLUSH) answers NOSCRIPT without running anything;
// the script is then sent whole by EVAL, which runs it once and keeps it for the next EVALSHA.
import { createHash } from 'node:crypto';
import { replyCode, type RedisClient } from './topology.js';

export class HotScript {
  private readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /** The script's reply, run on `redis` with `numberOfKeys` keys first in `args`. */
  async run(redis: RedisClient, numberOfKeys: number, args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, numberOfKeys, ...args);
    } catch (err) {
      if (replyCode(err) !== 'NOSCRIPT') throw err;
      return redis.eval(this.lua, numberOfKeys, ...args);
    }
  }
}
