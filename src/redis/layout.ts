// Key layout: every key the bot writes, in one namespace scheme `${prefix}:<owner>:<family>:<id>`, so one
// deployment (or one test) owns everything under `${prefix}:` and each owner's keys sit apart.
//
// Questions (src/store), owner `{q}`, a Redis Cluster hash tag (see below):
//   ${prefix}:{q}:question:<id>     hash    one question (see store/record.ts for the fields)
//   ${prefix}:{q}:schema:<ref>      string  a requestedSchema's JSON, stored once for every question that names
//                                   it by <ref> (its content hash, store/schemas.ts); expires after the last of them
//   ${prefix}:{q}:inbox:<holder>    stream  ids of finished questions whose MCP session <holder> holds
//   ${prefix}:{q}:lease:<holder>    string  present while the replica <holder> is alive (SET PX, renewed)
//   ${prefix}:{q}:holders           set     holders that have acquired a lease (the sweeper's work list)
//   ${prefix}:{q}:epoch             string  random value set once; its loss means Redis lost its data
//   ${prefix}:{q}:held:<holder>     zset    pending question ids of <holder>, scored by deadline
//   ${prefix}:{q}:user:<userId>     zset    pending question ids a person must answer, scored by deadline
//   ${prefix}:{q}:due               zset    every pending question id, scored by deadline (the timeout jobs' list)
//   ${prefix}:{q}:unattached        zset    ids of API and durable rounds' questions whose card may not be attached
//                                   yet, scored by deadline: the undelivered sweep's list, which drops from it
//                                   the ones that ended or have their card
//   ${prefix}:{q}:slot:<n>          hash    g: gen of the BullMQ timeout job of deadline slot <n>, w: its wake time
//   ${prefix}:{q}:rescues           hash    question id -> times its slot was given a new job (store/slot-rescue.ts)
//   ${prefix}:{q}:rate:<server>     string  new-question counter of the server's current rate window
//   ${prefix}:{q}:ended             stream  {id, state} of every question that ended (capped, ~100k entries)
//   ${prefix}:{q}:idem:<client>:<key>  string  an API client's Idempotency-Key: request hash and question or call id (24 h)
//   ${prefix}:{q}:mcpcall:<client>:<sha256 of call id>  string  what a running tools/call of POST /mcp is, for a
//                                   host's cancel on another replica (src/api/endpoint-calls.ts): an ask_human's
//                                   question id, `gateway:<token>` (`cancelled:<token>` once a cancel marked it),
//                                   or empty when two calls share the name; expires with the call. Client
//                                   `slack-run`: a person's /mcp run, for its Cancel button (src/slack/run-cancels.ts)
//   ${prefix}:{q}:call:<id>         hash    one API call on a person's behalf (src/api/call-store.ts)
//   ${prefix}:{q}:call:<id>:questions  list  ids of the questions the call caused, in order
//   ${prefix}:{q}:calls:running     zset    ids of running calls, scored by creation (the holder sweep's list)
//   ${prefix}:{q}:round:<id>        hash    a 2026 call's current input round (src/rounds/redis-store.ts)
//   ${prefix}:{q}:round:<id>:requests  hash  request key → the inputRequests entry's JSON as the hub keeps it
//                                            (only what it reads: src/mcp/round-bounds.ts keptRequest)
//   ${prefix}:{q}:round:<id>:answers   hash  request key → the answer's JSON, first answer kept
//   ${prefix}:{q}:rounds:open       zset    ids of rounds in progress, scored by deadline (the take-over list)
//   ${prefix}:{q}:link:<server>:<id>  string  the latest question of a 2026 URL request (id `mrtr:…`), until its
//                                   call ends (src/store/round-links.ts); expires with that question's record
// BullMQ queues, owner `{bull}` (BullMQ builds the keys below `${prefix}:{bull}:<queue>:` itself):
//   timeouts, reminders (src/store), outbox (src/slack/outbox), webhooks (src/webhooks)
// Slack's own state (src/slack), owner `slack`; one key per command, so no hash tag is needed:
//   ${prefix}:slack:answers:<teamId>:<userId>       list    JSON entries of the person's recent answers in a
//                                                   workspace (lists of the older layout, `slack:history:<userId>`,
//                                                   are never read: they expire with the retention)
//   ${prefix}:slack:home:<teamId>:<userId>          string  the hash Slack gave the person's Home view at its last
//                                                   recorded views.publish (src/slack/state/home-hashes.ts)
//   ${prefix}:slack:modals:<questionId>             hash    view id → user id of the forms open for a question
//   ${prefix}:slack:event:<event_id>                string  "1" while an Events API delivery counts as taken
//   ${prefix}:slack:retry:<channel>:<ts>            string  "1" once the retry of a -32042 answer was claimed
//   ${prefix}:slack:command:<trigger_id>            string  "1" once a slash command was claimed (replays refused);
//   ${prefix}:slack:command:view:<view id>          string  likewise the run of a `/mcp run` arguments form
//   ${prefix}:slack:run-message:<run id>            string  JSON {channel, ts} of a person's run's "working…"
//                                                   message, for a survivor resuming the run (a day)
//   ${prefix}:slack:sign-in-prompt:<teamId>:<userId>:<server>  hash  ts → channel of the person's Connect
//                                                   messages for the server, while their links live (10 min), so
//                                                   the replica its callback lands on updates them
//                                                   (src/slack/state/sign-in-prompts.ts)
//   ${prefix}:slack:sign-in-claim:<teamId>:<userId>:<server>  string  the scopes of the Connect message
//                                                   posted in the last minute (SET NX PX): the person's other calls
//                                                   post none of their own
//   ${prefix}:slack:installation:<kind>:<id>        string  JSON Installation (kind `team` or `enterprise`)
//   ${prefix}:slack:installation:<kind>:<id>:refreshing  string  the replica refreshing its rotated bot token
//                                                   (SET NX PX; src/slack/token-refresh.ts)
//   ${prefix}:slack:workspace-org:<teamId>          string  JSON {org, at}: the Enterprise Grid org whose org-wide
//                                                   installation serves the workspace, and when that was learnt
//                                                   (epoch ms; a plain org id, at 0, from before it was kept)
//                                                   (src/slack/state/org-links.ts)
//   ${prefix}:slack:workspace-org-revoked:<teamId>  string  JSON {org, at}: the org's access to the workspace revoked
//                                                   by `at` (epoch ms), kept 1 h so an older grant links nothing
//   ${prefix}:slack:orgs                            set     the orgs (E…) with an org-wide installation
//   ${prefix}:slack:pace:<channel|method@team>      string  epoch ms of the next free slot of a Slack limit
//   ${prefix}:slack:pace:<channel|method@team>:call string  the same for the calls as made (outbox conform)
// The audit trail (src/audit), owner `audit`:
//   ${prefix}:audit:events                          stream  one JSON event per entry, trimmed by age (MINID)
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
  /** A stored requestedSchema by its content hash; `schema('')` is the prefix the scripts append a ref to. */
  schema(ref: string): string;
  inbox(holder: string): string;
  lease(holder: string): string;
  readonly holders: string;
  readonly epoch: string;
  held(holder: string): string;
  user(userId: string): string;
  /** Pending question ids by deadline, which the timeout jobs read (store/slots.ts). */
  readonly due: string;
  /** API and durable rounds' questions not yet seen with a card, by deadline: the undelivered sweep's list. */
  readonly unattached: string;
  /** The marker of deadline slot `n`: the gen of its timeout job; `slot('')` is the prefix the scripts append to. */
  slot(n: string): string;
  /** How many times each overdue question's slot was given a new job by the rescue (store/slot-rescue.ts). */
  readonly rescues: string;
  rate(server: string): string;
  readonly ended: string;
  idempotency(client: string, key: string): string;
  /** The question an ask_human call of POST /mcp waits on, by API client and the host's JSON-RPC id. */
  endpointCall(client: string, requestId: string): string;
  call(id: string): string;
  callQuestions(id: string): string;
  readonly runningCalls: string;
  round(id: string): string;
  roundRequests(id: string): string;
  roundAnswers(id: string): string;
  readonly openRounds: string;
  /** The latest question of a 2026 URL request of `server` (its hub-given `mrtr:` id). */
  roundLink(server: string, elicitationId: string): string;
  /** The BullMQ `prefix` option: queue keys become `${bullPrefix}:${queueName}:...`. */
  readonly bullPrefix: string;
  /** A person's recent answers in workspace `teamId` (App Home). */
  answers(teamId: string, userId: string): string;
  /** The hash of a person's Home view in workspace `teamId`, as its last recorded publish left it. */
  homeHash(teamId: string, userId: string): string;
  modals(questionId: string): string;
  event(eventId: string): string;
  retry(channel: string, ts: string): string;
  command(triggerId: string): string;
  /** Where a person's run's "working…" message is, by the run's Cancel name (src/slack/state/run-messages.ts). */
  runMessage(runId: string): string;
  /** Where a person's Connect messages for `server` are, and the claim on the latest (state/sign-in-prompts.ts). */
  signInPrompts(teamId: string, userId: string, server: string): { places: string; claim: string };
  /** Every noted Connect message by its link's expiry, for the sweep that marks it expired. */
  readonly signInExpiries: string;
  installation(kind: 'team' | 'enterprise', id: string): string;
  /** The claim on an installation's bot token refresh (one replica at a time). */
  installationRefresh(kind: 'team' | 'enterprise', id: string): string;
  /** The org (E…) whose org-wide installation serves workspace `teamId`. */
  workspaceOrg(teamId: string): string;
  /** The latest revocation of an org's access to workspace `teamId` (kept an hour). */
  workspaceOrgRevoked(teamId: string): string;
  /** The orgs (E…) that installed the app org-wide. */
  readonly orgInstallations: string;
  pace(channel: string): string;
  readonly auditEvents: string;
  /** A CLIENT SETNAME value for one of the bot's connections, e.g. `${prefix}:inbox:<holder>`. */
  connectionName(role: string, holder: string): string;
}

export function keys(prefix: string): Keys {
  const slack = `${prefix}:slack`;
  return {
    question: (id) => `${prefix}:{q}:question:${id}`,
    schema: (ref) => `${prefix}:{q}:schema:${ref}`,
    inbox: (holder) => `${prefix}:{q}:inbox:${holder}`,
    lease: (holder) => `${prefix}:{q}:lease:${holder}`,
    holders: `${prefix}:{q}:holders`,
    epoch: `${prefix}:{q}:epoch`,
    held: (holder) => `${prefix}:{q}:held:${holder}`,
    user: (userId) => `${prefix}:{q}:user:${userId}`,
    due: `${prefix}:{q}:due`,
    unattached: `${prefix}:{q}:unattached`,
    slot: (n) => `${prefix}:{q}:slot:${n}`,
    rescues: `${prefix}:{q}:rescues`,
    rate: (server) => `${prefix}:{q}:rate:${server}`,
    ended: `${prefix}:{q}:ended`,
    idempotency: (client, key) => `${prefix}:{q}:idem:${client}:${key}`,
    endpointCall: (client, requestId) => `${prefix}:{q}:mcpcall:${client}:${requestId}`,
    call: (id) => `${prefix}:{q}:call:${id}`,
    callQuestions: (id) => `${prefix}:{q}:call:${id}:questions`,
    runningCalls: `${prefix}:{q}:calls:running`,
    round: (id) => `${prefix}:{q}:round:${id}`,
    roundRequests: (id) => `${prefix}:{q}:round:${id}:requests`,
    roundAnswers: (id) => `${prefix}:{q}:round:${id}:answers`,
    openRounds: `${prefix}:{q}:rounds:open`,
    roundLink: (server, elicitationId) => `${prefix}:{q}:link:${server}:${elicitationId}`,
    bullPrefix: `${prefix}:{bull}`,
    answers: (teamId, userId) => `${slack}:answers:${teamId}:${userId}`,
    homeHash: (teamId, userId) => `${slack}:home:${teamId}:${userId}`,
    modals: (questionId) => `${slack}:modals:${questionId}`,
    event: (eventId) => `${slack}:event:${eventId}`,
    retry: (channel, ts) => `${slack}:retry:${channel}:${ts}`,
    command: (triggerId) => `${slack}:command:${triggerId}`,
    runMessage: (runId) => `${slack}:run-message:${runId}`,
    signInPrompts: (teamId, userId, server) => {
      const places = `${slack}:sign-in-prompt:${teamId}:${userId}:${server}`;
      return { places, claim: `${slack}:sign-in-claim:${teamId}:${userId}:${server}` };
    },
    signInExpiries: `${slack}:sign-in-expiries`,
    installation: (kind, id) => `${slack}:installation:${kind}:${id}`,
    installationRefresh: (kind, id) => `${slack}:installation:${kind}:${id}:refreshing`,
    workspaceOrg: (teamId) => `${slack}:workspace-org:${teamId}`,
    workspaceOrgRevoked: (teamId) => `${slack}:workspace-org-revoked:${teamId}`,
    orgInstallations: `${slack}:orgs`,
    pace: (channel) => `${slack}:pace:${channel}`,
    auditEvents: `${prefix}:audit:events`,
    connectionName: (role, holder) => `${prefix}:${role}:${holder}`.replace(unsafeName, '_'),
  };
}

/** BullMQ queue of timeout jobs (one per deadline slot, jobId `<slot>.<gen>`; see store/slots.ts). */
export const TIMEOUT_QUEUE = 'timeouts';

/** BullMQ queue of reminder jobs (jobId `<question id>-r<n>`). */
export const REMINDER_QUEUE = 'reminders';

/** BullMQ queue of Slack calls (card posts and updates). */
export const OUTBOX_QUEUE = 'outbox';

/** BullMQ queue of webhook deliveries (jobId = the delivery id, so a repeated enqueue delivers once). */
export const WEBHOOK_QUEUE = 'webhooks';
