// The commands the bot sends itself, asked once at start-up in forms that write nothing, so a Redis ACL user
// that lacks one stops start-up naming it. Without this, a user without EVALSHA started and then refused every
// question (and one without XAUTOCLAIM lost the ended stream's readers) with NOPERM at run time. Redis checks a
// command's ACL (the command and the keys it names) before it runs it, so a probe answers NOPERM instead of the
// command's own answer (NOSCRIPT, NOGROUP, a syntax error, nothing found). The commands inside the scripts are
// checked by Redis as each script runs them; SADD cannot be asked without writing, and BZPOPMIN (BullMQ's workers'
// wait) not without holding the connection until Redis's next tick (~100 ms), so both are left to their first use.
import { StoreError } from './errors.js';
import { replyCode, urlTarget, type RedisClient, type RedisSetting } from './topology.js';

/** A command as a probe sends it: its name first; the keys are a key of the deployment's questions or queues. */
type Probe = (questionKey: string, queueKey: string) => string[];

/** No script has this SHA1, so EVALSHA answers NOSCRIPT once the ACL let it through. */
const NO_SCRIPT = '0'.repeat(40);

/** Each command the bot (ioredis, BullMQ) sends outside a script, in a form that reads or writes nothing. */
const PROBES: Probe[] = [
  (q) => ['EVALSHA', NO_SCRIPT, '1', q],
  (q) => ['EVAL', 'return 0', '1', q],
  (q) => ['XAUTOCLAIM', q, 'permission-probe', 'permission-probe', '0', '0-0', 'COUNT', '1'],
  (q) => ['XREADGROUP', 'GROUP', 'permission-probe', 'permission-probe', 'COUNT', '1', 'STREAMS', q, '>'],
  (q) => ['XREAD', 'COUNT', '1', 'STREAMS', q, '0-0'],
  (q) => ['XACK', q, 'permission-probe', '0-1'],
  (q) => ['XRANGE', q, '-', '+', 'COUNT', '1'],
  // NX with XX is a syntax error, answered after the ACL check and before anything is written.
  (q) => ['SET', q, '', 'NX', 'XX'],
  (q) => ['GET', q],
  (q) => ['DEL', q],
  (q) => ['HGET', q, 'permission-probe'],
  (q) => ['HGETALL', q],
  (q) => ['ZRANGE', q, '0', '0'],
  (q) => ['ZREM', q, 'permission-probe'],
  (q) => ['SMEMBERS', q],
  (q) => ['SREM', q, 'permission-probe'],
  () => ['TIME'],
  // BullMQ reads the server's version from INFO; the rest of its commands are its scripts (EVALSHA).
  () => ['INFO', 'server'],
  (_, queue) => ['EVALSHA', NO_SCRIPT, '1', queue],
];

/**
 * Refuses (StoreError 'redis_refused', naming the user's setting) when Redis answers NOPERM to any command the
 * bot needs, on a key under `prefix`; any other answer or failure is left to the bot's own use of the command.
 */
export async function checkPermissions(
  redis: RedisClient,
  setting: RedisSetting,
  prefix: string,
): Promise<void> {
  const questionKey = `${prefix}:{q}:permission-probe`;
  const queueKey = `${prefix}:{bull}:permission-probe`;
  const refused = await Promise.all(
    PROBES.map(async (probe) => {
      const [command = '', ...args] = probe(questionKey, queueKey);
      const noPermission = await redis.call(command, ...args).then(
        () => false,
        (error: unknown) => replyCode(error) === 'NOPERM',
      );
      return noPermission ? [command] : [];
    }),
  );
  const missing = [...new Set(refused.flat())];
  if (missing.length === 0) return;
  const { key, user } = userSetting(setting);
  const grants = missing.map((c) => `+${c.toLowerCase()}`).join(' ');
  throw new StoreError(
    'redis_refused',
    `${key}: the Redis user "${user}" may not run ${missing.join(', ')} on the keys under "${prefix}:" ` +
      `(Redis answered NOPERM). Grant them, e.g. ACL SETUSER ${user} ${grants} ~${prefix}:*, or use a user that has them.`,
  );
}

/** The setting that names the Redis user, and its name (Redis's `default` user when none is given). */
function userSetting(setting: RedisSetting): { key: string; user: string } {
  if (setting.topology === 'cluster' || setting.topology === 'sentinel') {
    return { key: 'REDIS_USERNAME', user: setting.username ?? 'default' };
  }
  // The URL's own user wins over REDIS_USERNAME (urlTarget), so the URL is the setting to change then.
  const inUrl = new URL(setting.url).username !== '';
  const user = urlTarget(setting.url, setting).username ?? 'default';
  return { key: inUrl ? 'REDIS_URL' : 'REDIS_USERNAME', user };
}
