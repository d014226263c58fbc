// What the Slack side needs to remember, as ports the Slack side owns: the listeners, the Home tab and the
// open forms depend on these shapes, and SlackState (slack-state.ts) implements them in Redis.
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { RedisMemory } from '../../redis/index.js';
import type { AnswerSummary } from '../../relay/types.js';

/** One ended question as the person who was asked sees it later (the App Home lists these). */
export type AnswerRecord = AnswerSummary;

/** A form a person opened for a question (views.open's view id). */
export interface OpenModal {
  viewId: string;
  userId: string;
}

/**
 * A person in one workspace: whose App Home. An Enterprise Grid user (W… id) is the same id in every workspace of
 * the org, with a Home of its own in each.
 */
export interface HomeOwner {
  teamId: string;
  userId: string;
}

/** Each person's recent answers in each workspace, newest first. */
export interface AnswerHistory {
  recordAnswer(owner: HomeOwner, record: AnswerRecord): Promise<void>;
  recentAnswers(owner: HomeOwner, limit?: number): Promise<AnswerRecord[]>;
}

/**
 * What a recorded Home hash replaces: only the hash the publish was guarded by (`was`), only when none is
 * recorded (`none`), or whatever is recorded (`any`: a publish made to catch the record up with Slack).
 */
export type HashCondition = { was: string } | 'none' | 'any';

/**
 * The hash Slack gave each person's Home view at its last recorded views.publish, shared by every replica: a
 * publish guarded by it is refused (`hash_conflict`) once another publish came after it was read.
 */
export interface HomeHashes {
  homeHash(owner: HomeOwner): Promise<string | undefined>;
  /** Records `hash` when `condition` holds; false when another publish's record came first. */
  recordHomeHash(owner: HomeOwner, hash: string, condition: HashCondition): Promise<boolean>;
}

/** The forms open per question, so that one replica can replace them when the question ends. */
export interface ModalRecords {
  /** Remembers a form for `ttlMs` (the question's time left, plus a margin). */
  rememberModal(questionId: string, modal: OpenModal, ttlMs: number): Promise<void>;
  /** The forms remembered for a question, forgotten as they are read. */
  takeModals(questionId: string): Promise<OpenModal[]>;
}

/** Events API deliveries: true for the first delivery of an event id across replicas, false for a retry. */
export interface EventDeliveryClaims {
  claim(eventId: string): Promise<boolean>;
}

/** One-time claims across replicas: each is true for its first caller only. */
export interface Claims {
  /** The retry of the -32042 answer posted at `channel`/`ts`. */
  claimRetry(channel: string, ts: string): Promise<boolean>;
  /**
   * The slash command with this `trigger_id` (a replayed command is refused), or the run of the `/mcp run`
   * arguments form named `view:<view id>` (a view_submission delivered again runs nothing).
   */
  claimCommand(triggerId: string): Promise<boolean>;
}

/** What a departure's delete did: deleted the installation, kept a newer one, or found none. */
export type DepartureDelete = 'deleted' | 'newer' | 'none';

/** The installations' part that the app leaving a workspace needs (uninstalls.ts). */
export interface DepartedInstallations {
  /**
   * Deletes the installation `query` names unless it was installed at or after `departedBy` (epoch ms): a
   * departure Slack delivers again after a reinstall describes the installation before, not this one. One
   * saved before installations kept their time is deleted.
   */
  deleteInstalledBefore(query: InstallationQuery<boolean>, departedBy: number): Promise<DepartureDelete>;
}

/**
 * The installations' part a rotated bot token's refresh needs (token-refresh.ts): one refresh of an installation
 * at a time across replicas, and its answer saved only over the tokens it spent.
 */
export interface RefreshedInstallations {
  /** Claims the refresh of the installation `query` names for `ms`, as `holder`; false while another holds it. */
  claimRefresh(query: InstallationQuery<boolean>, holder: string, ms: number): Promise<boolean>;
  /** Ends `holder`'s claim; a claim another took over since (after `ms`) stays. */
  releaseRefresh(query: InstallationQuery<boolean>, holder: string): Promise<void>;
  /**
   * Saves a refreshed installation only while the stored one still holds `spent` as its bot refresh token (not
   * over a reinstall, an uninstall or another refresh); true when saved.
   */
  storeRefreshed(installation: Installation<'v1' | 'v2', boolean>, spent: string): Promise<boolean>;
}

/**
 * Which Enterprise Grid org's org-wide installation serves a workspace (Slack names both on each request through
 * it, grants it in team_access_granted, lists it in auth.teams.list), so that a call made outside a listener with
 * only the workspace's id finds the org's token.
 */
export interface WorkspaceOrgs {
  /**
   * Notes that org `enterpriseId`'s installation serves workspace `teamId`: learnt now (a request, a listing), or
   * granted at `grantedAt` (epoch ms, team_access_granted). True when linked: not over another org's link (a
   * grant moves it); a grant not as old as the link it finds, nor older than this org's last revocation.
   */
  linkWorkspace(teamId: string, enterpriseId: string, grantedAt?: number): Promise<boolean>;
  /** The org last noted for `teamId`, if any. */
  orgOf(teamId: string): Promise<string | undefined>;
  /**
   * Drops `teamId`'s link to `enterpriseId` (the org's access to it revoked) unless it was learnt at or after
   * `departedBy` (epoch ms): a revocation Slack delivers again after a new grant describes the grant before.
   */
  unlinkWorkspace(teamId: string, enterpriseId: string, departedBy: number): Promise<DepartureDelete>;
  /** The orgs (E…) that installed the app org-wide. */
  orgInstallations(): Promise<string[]>;
}

/** Everything the Slack side keeps, plus whether its storage answers now (for /readyz). */
export interface SlackStatePorts extends AnswerHistory, HomeHashes, ModalRecords, Claims {
  readonly deliveries: EventDeliveryClaims;
  /** Each workspace's installation (OAuth distribution), Bolt's InstallationStore. */
  readonly installations: InstallationStore & DepartedInstallations & RefreshedInstallations & WorkspaceOrgs;
  /** True when the storage answers now (a failure is the answer, not an error). */
  answers(): Promise<boolean>;
  /** How full Redis is (INFO memory); undefined when it cannot tell (INFO refused, or failed). */
  memory(): Promise<RedisMemory | undefined>;
  close(): Promise<void>;
}
