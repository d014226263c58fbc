// Key layout. Every key lives under `${prefix}:` so one deployment (or one test) owns a clean namespace.
//
//   ${prefix}:{q}:question:<id>     hash    one question (see record.ts for the fields)
//   ${prefix}:{q}:inbox:<holder>    stream  ids of finished questions whose MCP session <holder> holds
//   ${prefix}:{q}:lease:<holder>    string  present while the replica <holder> is alive (SET PX, renewed)
//   ${prefix}:{q}:holders           set     holders that have acquired a lease (the sweeper's work list)
//   ${prefix}:{q}:epoch             string  random value set once; its loss means Redis lost its data
//   ${prefix}:{q}:held:<holder>     zset    pending question ids of <holder>, scored by deadline
//   ${prefix}:{q}:user:<userId>     zset    pending question ids a person must answer, scored by deadline
//   ${prefix}:{q}:rate:<server>     string  new-question counter of the server's current rate window
//   ${prefix}:{bull}:timeouts:...   BullMQ  the delayed timeout jobs (BullMQ builds these from its prefix)
//
// Redis Cluster: the finish script writes a question hash AND its holder's inbox in one step, so both must
// hash to the same slot. One deployment-wide hash tag `{q}` guarantees that. A key's tag is the text between
// its first `{` and the next `}`; both keys share the exact text `${prefix}:{q}`, so they share the tag even
// when the prefix itself contains braces. The cost is that all question state sits on one cluster node, which
// is fine at ~1 KB per question. Spreading it would need the holder inside the question id (tag `{h:<holder>}`),
// so that a replica can find a question's slot from its id alone. BullMQ needs all keys of a queue in one slot;
// its own tag `{bull}` keeps the timer traffic apart from the question slot.

/** Characters allowed in a connection name (CLIENT SETNAME refuses spaces and newlines). */
const unsafeName = /[^\w.:{}-]/g;

export interface Keys {
  question(id: string): string;
  inbox(holder: string): string;
  lease(holder: string): string;
  readonly holders: string;
  readonly epoch: string;
  held(holder: string): string;
  user(userId: string): string;
  rate(server: string): string;
  /** The BullMQ `prefix` option: queue keys become `${bullPrefix}:${queueName}:...`. */
  readonly bullPrefix: string;
  /** A CLIENT SETNAME value for one of this store's connections, e.g. `${prefix}:inbox:<holder>`. */
  connectionName(role: string, holder: string): string;
}

export function keys(prefix: string): Keys {
  return {
    question: (id) => `${prefix}:{q}:question:${id}`,
    inbox: (holder) => `${prefix}:{q}:inbox:${holder}`,
    lease: (holder) => `${prefix}:{q}:lease:${holder}`,
    holders: `${prefix}:{q}:holders`,
    epoch: `${prefix}:{q}:epoch`,
    held: (holder) => `${prefix}:{q}:held:${holder}`,
    user: (userId) => `${prefix}:{q}:user:${userId}`,
    rate: (server) => `${prefix}:{q}:rate:${server}`,
    bullPrefix: `${prefix}:{bull}`,
    connectionName: (role, holder) => `${prefix}:${role}:${holder}`.replace(unsafeName, '_'),
  };
}

/** BullMQ queue of timeout jobs (one per pending question, jobId = question id). */
export const TIMEOUT_QUEUE = 'timeouts';

/** BullMQ queue of reminder jobs (jobId `<question id>-r<n>`). */
export const REMINDER_QUEUE = 'reminders';
