// The App Home tab as each person's inbox: published when they open it (app_home_opened) and re-published when
// one of their questions starts or ends, with each ended question added to their recent answers first.
// Every publish is a refresh, paced by views.publish's documented limit (Tier 4 per workspace, a slot shared by every
// replica through the outbox) and coalesced per person: a publish waiting for its slot renders the latest state
// when the slot comes, so a burst of changes for one person makes at most two publishes, the last one current.
// The refreshes a question's start or end makes take those slots in turn (home-turns.ts), so a Home that a person
// opens, or a click's refresh, never waits behind a burst of other people's.
// A stopping replica does not wait for those slots: close() skips the refreshes still waiting (see close).
// Every publish is guarded by the Home's view hash (home-publish.ts), so a view rendered from an older read, on
// any replica, never lands after a newer one; a refused one renders again.
import { webApi } from '@slack/bolt';
import type { HomeView } from '@slack/types';
import { HOME_RECENT_MAX, homeView, type HomeConnection } from '../../blocks/index.js';
import { namedAnswerers, type Question } from '../relay/types.js';
import type { Clock } from '../clock.js';
import type { AnswerHistory, AnswerRecord, HomeHashes, HomeOwner } from './state/index.js';
import type { Locales } from './locales.js';
import type { SlackClients } from './workspaces.js';
import type { Connections } from '../mcp/index.js';
import type { QuestionObserver } from './surface.js';
import { isWebApiCallError } from './outbox/slack-calls.js';
import { StoppableWaits, WaitStoppedError } from './stoppable-waits.js';
import { BackgroundTurns, type Release } from './home-turns.js';
import { publishGuarded, type GuardedOutcome } from './home-publish.js';
import { homeTeamOf } from './sign-in-owner.js';
import { isUserId } from './user-id.js';

export interface HomeDeps {
  /** Web API clients by workspace, for calls made outside a Bolt listener. */
  clients: SlackClients;
  /** A person's pending questions, soonest deadline first. */
  pendingFor(userId: string): Promise<Question[]>;
  /** Each person's recent answers per workspace. */
  history: AnswerHistory;
  /** Each Home's view hash at its last publish, shared by every replica: what guards each publish. */
  hashes: HomeHashes;
  /** The person's sign-ins, listed under their answers; absent when no server needs sign-in. */
  connections?: Pick<Connections, 'list'>;
  locales: Pick<Locales, 'of'>;
  logger: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Epoch ms; when an answer is recorded. Default Date.now. */
  now?: () => number;
  /** Reserves workspace `teamId`'s next views.publish slot and gives the wait for it in ms; absent: unpaced. */
  slot?: (teamId?: string) => Promise<number>;
  /** Times the waits for a publish slot and for a Retry-After; default the system clock. */
  clock?: Pick<Clock, 'schedule'>;
}

/** Refusals (429) of one refresh's publish met by waiting Retry-After, before it is logged as failed. */
const RATELIMITED_RETRIES = 3;
/**
 * Publishes of one refresh that another publish overtook (hash_conflict, or a record that came first) made again
 * at once, before it is logged as failed: each one means another replica's newer view landed meanwhile.
 */
const OUTDATED_RETRIES = 4;

/** A refresh whose publishes were overtaken OUTDATED_RETRIES times over; the Home shows another's newer view. */
class HomeOvertakenError extends Error {
  override name = 'HomeOvertakenError';
  readonly code = 'home_overtaken';
}

/** One refresh's retries so far, and whether its next publish catches the recorded hash up (unguarded). */
interface Tries {
  ratelimited: number;
  outdated: number;
  catchUp: boolean;
}

interface Refresh {
  again: boolean;
  /** Made by a question's start or end: takes its workspace's turn before reserving a slot. */
  background: boolean;
  /** A person's own refresh joined this one: it leaves the background turns' line, if waiting there. */
  hurry: () => void;
  done: Promise<void>;
}

const noRelease: Release = () => undefined;

export class HomeTab implements QuestionObserver {
  /**
   * One refresh per person and workspace at a time, so an older view never lands after a newer one (from this
   * replica), and never two waiting: a change while one waits or runs makes it publish once more.
   */
  private readonly refreshing = new Map<string, Refresh>();
  /** Refreshes started by question events, awaited by close(). */
  private readonly background = new Set<Promise<void>>();
  /** Stopped by close(): refreshes waiting for a slot (or a Retry-After) give up instead of publishing. */
  private readonly waits: StoppableWaits;
  /** Background refreshes' turns at views.publish slots, per workspace; stopped by close() as the waits are. */
  private readonly turns = new BackgroundTurns();
  /**
   * The workspace of a refresh that names none (an API question of a one-workspace bot has no team id): the bot
   * token's (auth.test, once), so its refreshes share the person's coalescing and the workspace's one pace with
   * those that name it (two paces of one workspace together went past views.publish's limit: 429s).
   */
  private readonly oneWorkspace: () => Promise<string>;
  /** Refreshes close() skipped, for its log line. */
  private skipped = 0;

  constructor(private readonly deps: HomeDeps) {
    this.waits = new StoppableWaits(deps.clock);
    this.oneWorkspace = homeTeamOf(deps.clients);
  }

  /** `owner`'s Home tab as it stands now. */
  private async render({ teamId, userId }: HomeOwner): Promise<HomeView> {
    const [pending, recent, locale, connections] = await Promise.all([
      this.deps.pendingFor(userId),
      this.deps.history.recentAnswers({ teamId, userId }, HOME_RECENT_MAX),
      this.deps.locales.of(userId, teamId),
      this.connectionsOf(userId, teamId),
    ]);
    // One person may be in several workspaces that installed the app (an Enterprise Grid W… id is the same in
    // each): a workspace's Home lists only its own questions (the only ones its buttons can act on); the answers
    // are kept per workspace.
    const ours = pending.filter((q) => (q.origin.teamId ?? teamId) === teamId);
    return homeView({ pending: ours, recent, locale, ...(connections ? { connections } : {}) });
  }

  private async connectionsOf(userId: string, teamId: string): Promise<HomeConnection[] | undefined> {
    if (this.deps.connections === undefined) return undefined;
    const listed = await this.deps.connections.list({ teamId, userId });
    return listed.map((c) => ({
      server: c.server,
      scopes: c.scopes,
      ...(c.expiresAt ? { expiresAt: c.expiresAt.getTime() } : {}),
    }));
  }

  /**
   * Publishes the Home tab (a person opened or clicked it: no background refresh goes ahead of it); a call while
   * one is running makes that one publish once more when done.
   */
  async refresh(userId: string, teamId?: string): Promise<void> {
    return this.refreshAs(userId, teamId ?? (await this.oneWorkspace()), false);
  }

  private refreshAs(userId: string, teamId: string, background: boolean): Promise<void> {
    const key = `${teamId} ${userId}`;
    const running = this.refreshing.get(key);
    if (running) {
      running.again = true;
      if (!background) running.hurry();
      return running.done;
    }
    const entry: Refresh = { again: false, background, hurry: () => undefined, done: Promise.resolve() };
    entry.done = this.run(entry, key, { teamId, userId });
    this.refreshing.set(key, entry);
    return entry.done;
  }

  /** Publishes until no change came meanwhile; drops `entry` in the step its last check ends (none joins late). */
  private async run(entry: Refresh, key: string, owner: HomeOwner): Promise<void> {
    const tries: Tries = { ratelimited: 0, outdated: 0, catchUp: false };
    try {
      do {
        const release = await this.turnOf(entry, owner.teamId);
        let next: { afterMs: number } | undefined;
        try {
          await this.waitForSlot(owner.teamId);
          // Changes that came while waiting for the slot are in this publish: it renders now.
          entry.again = false;
          next = await this.attempt(owner, tries);
        } finally {
          release();
        }
        if (next !== undefined) {
          if (next.afterMs > 0) await this.waits.wait(next.afterMs);
          entry.again = true;
        }
      } while (entry.again);
    } finally {
      this.refreshing.delete(key);
    }
  }

  /** A background refresh's turn in its workspace's line (none for a person's own, or once hurried). */
  private turnOf(entry: Refresh, teamId: string): Promise<Release> {
    if (!entry.background) return Promise.resolve(noRelease);
    const { turn, leave } = this.turns.take(teamId);
    entry.hurry = () => {
      entry.background = false;
      leave();
    };
    return turn;
  }

  private async waitForSlot(teamId: string): Promise<void> {
    const waitMs = this.deps.slot ? await this.deps.slot(teamId) : 0;
    if (waitMs > 0) await this.waits.wait(waitMs);
  }

  /**
   * One guarded publish; when it must be made again, after how long: a 429 (another app's use, or a slot missed)
   * after its Retry-After, an overtaken one at once (with a fresh read), each while its retries remain.
   */
  private async attempt(owner: HomeOwner, tries: Tries): Promise<{ afterMs: number } | undefined> {
    let outcome: GuardedOutcome;
    try {
      outcome = await publishGuarded(this.deps, owner, () => this.render(owner), tries.catchUp);
    } catch (err) {
      const ratelimited = isWebApiCallError(err) && err.code === webApi.ErrorCode.RateLimitedError;
      if (!ratelimited || tries.ratelimited++ >= RATELIMITED_RETRIES) throw err;
      return { afterMs: err.retryAfter * 1000 };
    }
    if (outcome === 'current') return undefined;
    if (tries.outdated++ >= OUTDATED_RETRIES) {
      throw new HomeOvertakenError(`App Home publishes overtaken ${tries.outdated} times in a row`);
    }
    tries.catchUp = outcome === 'behind';
    return { afterMs: 0 };
  }

  started(question: Question): void {
    this.inBackground(question, () => this.refreshAll(namedAnswerers(question), question.origin.teamId));
  }

  /** The answer goes to the recent answers of whoever gave it (the person asked when nobody did). */
  ended(question: Question, byUserId?: string): void {
    if (question.state === 'pending') return;
    const record: AnswerRecord = {
      questionId: question.id,
      server: question.server,
      message: question.message,
      state: question.state,
      reason: question.reason ?? 'timed_out',
      at: (this.deps.now ?? Date.now)(),
      mode: question.url ? 'url' : 'form',
    };
    const answeredBy = byUserId ?? question.userId;
    this.inBackground(question, async () => {
      const teamId = question.origin.teamId ?? (await this.oneWorkspace());
      // A channel question nobody answered has no person to keep it for.
      if (isUserId(answeredBy)) await this.deps.history.recordAnswer({ teamId, userId: answeredBy }, record);
      const inboxes = new Set([...namedAnswerers(question), question.userId, answeredBy]);
      await this.refreshAll([...inboxes].filter(isUserId), teamId);
    });
  }

  private async refreshAll(userIds: string[], teamId?: string): Promise<void> {
    if (userIds.length === 0) return;
    const team = teamId ?? (await this.oneWorkspace());
    await Promise.all(userIds.map((userId) => this.refreshAs(userId, team, true)));
  }

  /**
   * Skips the refreshes still waiting for their views.publish slot (or turn) and waits for the others (call before
   * closing Redis and the Slack client). At views.publish's pace a stop that ends many questions would otherwise
   * wait a slot per person. Nothing a person needs is lost: the answers are already recorded in the history
   * (Redis), and the Home tab is rendered afresh from Redis when they next open it (app_home_opened), and by
   * any replica at their next question's start or end. Handing the refreshes to another replica, as card
   * updates are, would only publish sooner a tab that nobody may be looking at.
   */
  async close(): Promise<void> {
    this.waits.stop();
    this.turns.stop();
    await Promise.all([...this.background]);
    if (this.skipped > 0) {
      this.deps.logger.info({ skipped: this.skipped }, 'App Home refreshes skipped at stop');
    }
  }

  // The card is what matters; a Home tab that fails to refresh is logged with Slack's or Redis's code and is
  // right again on the next event or when the person opens it.
  private inBackground(question: Question, work: () => Promise<void>): void {
    const done = work().catch((err: unknown) => {
      if (err instanceof WaitStoppedError) {
        this.skipped += 1;
        return;
      }
      const code = (err as { code?: unknown }).code;
      this.deps.logger.error({ err, code, questionId: question.id }, 'App Home refresh failed');
    });
    this.background.add(done);
    void done.finally(() => this.background.delete(done));
  }
}
