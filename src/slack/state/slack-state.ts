// The Slack side's state in Redis (SlackStatePorts): each person's recent answers and Home view hash per workspace
// (App Home), the installations, which Events API deliveries were taken, the forms open per question, and the
// one-time claims of -32042 retries and slash commands. One connection of its own, apart from the question
// store's; it also answers /readyz's "does Redis answer".
import {
  RedisConnections,
  commandError,
  defaultLogger,
  endClient,
  keys,
  memoryOf,
  serving,
  type Keys,
  type RedisClient,
  type RedisMemory,
  type RedisSetting,
  type StoreLogger,
} from '../../redis/index.js';
import type { Sealer } from '../../mcp/auth/sealed.js';
import { RedisEndpointCalls } from '../../api/endpoint-calls.js';
import { EventDeliveries } from './deliveries.js';
import { RedisInstallationStore } from './installations.js';
import { InstallationRecords } from './sealed-installations.js';
import { HISTORY_MAX, recentAnswers, recordAnswer } from './history.js';
import { readHomeHash, recordHomeHash } from './home-hashes.js';
import { RedisRunMessages } from './run-messages.js';
import { RedisSignInPrompts } from './sign-in-prompts.js';
import type { AnswerRecord, HashCondition, HomeOwner, OpenModal, SlackStatePorts } from './ports.js';

/**
 * How long a slash command's trigger_id (or an arguments form's view id) stays claimed, in seconds: beyond the
 * 5 minutes in which Slack's request signature is accepted, so every replay that passes the signature check is
 * caught.
 */
export const COMMAND_CLAIM_TTL_SEC = 600;

/** `url`: REDIS_URL. */
export type SlackStateOptions = RedisSetting & {
  /** REDIS_PREFIX; every key lives under `${prefix}:`. */
  prefix: string;
  /** This replica's id, used in the connection's name. */
  holderId: string;
  /** How long a person's answer history is kept after their latest answer, in seconds. Default 86400 (one day). */
  retentionSec?: number;
  logger?: StoreLogger;
  /** ELICIT_RELAY_TOKEN_KEY's (with _PREVIOUS): sealed installations open with it. */
  sealer?: Sealer;
  /** ELICIT_RELAY_SEAL_INSTALLATIONS: installations written are sealed with `sealer`. Default false: kept plain. */
  sealWrites?: boolean;
};

export class SlackState implements SlackStatePorts {
  /** Events API deliveries already taken by some replica (each event is processed once). */
  readonly deliveries: EventDeliveries;
  /** Each workspace's installation (OAuth distribution), Bolt's InstallationStore. */
  readonly installations: RedisInstallationStore;
  /**
   * The entries of the person's runs going on, and their Cancel marks (run-cancels.ts), among the POST /mcp
   * calls' (`{q}:mcpcall:`, one hash slot: one script checks them all) under a client name of their own.
   */
  readonly runCancelMarks: RedisEndpointCalls;
  /** Where the person's runs' "working…" messages are, for a replica resuming one (run-messages.ts). */
  readonly runMessages: RedisRunMessages;
  /** Where each person's Connect messages are, for the replica their sign-in's callback lands on. */
  readonly signInPrompts: RedisSignInPrompts;
  private readonly keys: Keys;

  private constructor(
    private readonly cmd: RedisClient,
    private readonly opts: SlackStateOptions & { logger: StoreLogger },
  ) {
    this.deliveries = new EventDeliveries(cmd, opts.prefix);
    this.installations = new RedisInstallationStore(cmd, opts.prefix, Date.now, installationRecords(opts));
    this.keys = keys(opts.prefix);
    this.runCancelMarks = new RedisEndpointCalls(cmd, (client, id) => this.keys.endpointCall(client, id));
    this.runMessages = new RedisRunMessages(cmd, (runId) => this.keys.runMessage(runId));
    this.signInPrompts = new RedisSignInPrompts(cmd, this.keys);
  }

  static async open(opts: SlackStateOptions): Promise<SlackState> {
    const logger = opts.logger ?? defaultLogger;
    const name = keys(opts.prefix).connectionName('slack-state', opts.holderId);
    const cmd = await new RedisConnections(opts, logger).command(name);
    return new SlackState(cmd, { ...opts, logger });
  }

  /** Adds an ended question to the person's recent answers in its workspace (newest first, HISTORY_MAX kept). */
  async recordAnswer({ teamId, userId }: HomeOwner, record: AnswerRecord): Promise<void> {
    const ttlSec = this.opts.retentionSec ?? 86_400;
    try {
      await recordAnswer(this.cmd, this.keys.answers(teamId, userId), record, {
        max: HISTORY_MAX,
        ttlSec,
      });
    } catch (err) {
      throw commandError('recordAnswer', err);
    }
  }

  /** The person's most recent answers in the workspace, newest first. */
  async recentAnswers({ teamId, userId }: HomeOwner, limit = HISTORY_MAX): Promise<AnswerRecord[]> {
    const key = this.keys.answers(teamId, userId);
    try {
      return await recentAnswers(this.cmd, key, limit, this.opts.logger);
    } catch (err) {
      throw commandError('recentAnswers', err);
    }
  }

  /** The hash of the person's Home view in the workspace as its last recorded publish left it. */
  async homeHash({ teamId, userId }: HomeOwner): Promise<string | undefined> {
    try {
      return await readHomeHash(this.cmd, this.keys.homeHash(teamId, userId));
    } catch (err) {
      throw commandError('homeHash', err);
    }
  }

  /** Records a publish's hash when `condition` holds (false: another publish's record came first). */
  async recordHomeHash(
    { teamId, userId }: HomeOwner,
    hash: string,
    condition: HashCondition,
  ): Promise<boolean> {
    try {
      return await recordHomeHash(this.cmd, this.keys.homeHash(teamId, userId), hash, condition);
    } catch (err) {
      throw commandError('recordHomeHash', err);
    }
  }

  /** Remembers a form opened for a question, for `ttlMs` (the question's time left, plus a margin). */
  async rememberModal(questionId: string, modal: OpenModal, ttlMs: number): Promise<void> {
    const key = this.keys.modals(questionId);
    try {
      failedReply(await this.cmd.multi().hset(key, modal.viewId, modal.userId).pexpire(key, ttlMs).exec());
    } catch (err) {
      throw commandError('rememberModal', err);
    }
  }

  /** The forms remembered for a question, forgotten as they are read (so one replica replaces them). */
  async takeModals(questionId: string): Promise<OpenModal[]> {
    const key = this.keys.modals(questionId);
    try {
      const replies = await this.cmd.multi().hgetall(key).del(key).exec();
      failedReply(replies);
      const hash = (replies?.[0]?.[1] ?? {}) as Record<string, string>;
      return Object.entries(hash).map(([viewId, userId]) => ({ viewId, userId }));
    } catch (err) {
      throw commandError('takeModals', err);
    }
  }

  /**
   * True for the first claim of the retry of the -32042 answer posted at `channel`/`ts`, across replicas (SET
   * NX); the claim lasts as long as answer history does.
   */
  async claimRetry(channel: string, ts: string): Promise<boolean> {
    const key = this.keys.retry(channel, ts);
    try {
      return (await this.cmd.set(key, '1', 'EX', this.opts.retentionSec ?? 86_400, 'NX')) === 'OK';
    } catch (err) {
      throw commandError('claimRetry', err);
    }
  }

  /**
   * True for the first claim of the slash command with this `trigger_id`, or of an arguments form's run
   * (`view:<view id>`), across replicas (SET NX EX).
   */
  async claimCommand(triggerId: string): Promise<boolean> {
    try {
      const key = this.keys.command(triggerId);
      return (await this.cmd.set(key, '1', 'EX', COMMAND_CLAIM_TTL_SEC, 'NX')) === 'OK';
    } catch (err) {
      throw commandError('claimCommand', err);
    }
  }

  /** True when Redis serves now: PONG, and on Cluster `cluster_state:ok` (a failure is the answer, not an error). */
  answers(): Promise<boolean> {
    return serving(this.cmd);
  }

  /** How full Redis is, for /readyz and the metrics; undefined when INFO fails (an ACL without it, Redis away). */
  memory(): Promise<RedisMemory | undefined> {
    return memoryOf(this.cmd).catch(() => undefined);
  }

  async close(): Promise<void> {
    await endClient(this.cmd, true);
  }
}

/** Installations opened with `sealer`, sealed with it when `sealWrites`; one no key opens warned about by its key. */
function installationRecords(opts: SlackStateOptions & { logger: StoreLogger }): InstallationRecords {
  const unopenable = (key: string, code: string): void =>
    opts.logger.warn(
      { key, code },
      'a Slack installation opens with neither ELICIT_RELAY_TOKEN_KEY nor _PREVIOUS: its workspace is treated as not installed until the key that sealed it is set again or the app is installed there again',
    );
  return new InstallationRecords(opts.sealer, unopenable, opts.sealWrites === true);
}

/** A MULTI whose step failed throws that step's error. */
function failedReply(replies: [Error | null, unknown][] | null): void {
  const failed = replies?.find(([err]) => err !== null)?.[0];
  if (failed) throw failed;
}
