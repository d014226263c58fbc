// Chat-agnostic core types shared by every boundary (mcp, store, slack).
// Nothing here imports an SDK: these are the words the relay speaks.

/** What a person's answer looks like once typed by the schema (MCP `ElicitResult.content`). */
export type Content = Record<string, string | number | boolean | string[]>;

/**
 * The schema keyword (this bot's own, never sent to a server) that makes one form of several requests: a list of
 * `{ message, properties }`, one per request in order, naming the properties (of the combined schema) that
 * answer it. src/mcp writes it for a 2026 round's form requests asked together; blocks/ draws a titled
 * section per entry.
 */
export const FORM_SECTIONS_KEYWORD = 'x-elicit-relay-sections';

/** The answer that goes back to the MCP server: exactly one per question. */
export type Outcome = { action: 'accept'; content: Content } | { action: 'decline' } | { action: 'cancel' };

/** Why a question ended; stored with the outcome and shown on the card. */
export type EndReason =
  | 'answered' // accept: the person submitted the form
  | 'declined' // decline: the person clicked Decline
  | 'closed' // cancel: the person closed the modal
  | 'timed_out' // cancel: the deadline passed
  | 'withdrawn' // cancel: the server sent notifications/cancelled
  | 'call_ended' // cancel: the requester's tool call or connection ended
  | 'holder_lost' // cancel: the replica holding the MCP session died
  | 'delivery_failed'; // cancel: the card could not be posted

/** Every EndReason, for checking stored values and for the API's schemas. */
export const END_REASONS: readonly EndReason[] = [
  'answered',
  'declined',
  'closed',
  'timed_out',
  'withdrawn',
  'call_ended',
  'holder_lost',
  'delivery_failed',
];

/** True for every EndReason: for checking values read back from storage. */
export const isEndReason = (value: unknown): value is EndReason =>
  END_REASONS.some((reason) => reason === value);

/** The reasons of a person's own act on the question (their answer, decline or close), not of a timer or a call. */
const PERSON_REASONS: readonly EndReason[] = ['answered', 'declined', 'closed'];

/** Whether `reason` is a person's act (PERSON_REASONS); any string, as metrics label it. */
export const isPersonReason = (reason: string): boolean => PERSON_REASONS.some((r) => r === reason);

export type QuestionState = 'pending' | 'accepted' | 'declined' | 'cancelled';

/** Every QuestionState, for checking stored values and for the API's schemas. */
export const QUESTION_STATES: readonly QuestionState[] = ['pending', 'accepted', 'declined', 'cancelled'];

/** True for every QuestionState: for checking values read back from storage. */
export const isQuestionState = (value: unknown): value is QuestionState =>
  QUESTION_STATES.some((state) => state === value);

/**
 * What attaching a question's cards found: its state then ('missing' when it is gone), or 'ended_with_card' when
 * it ended after they were attached: an earlier try of the same attach reached Redis (its answer was lost), so
 * the winner of the end saw the cards and shows the end on them itself.
 */
export type Attached = QuestionState | 'missing' | 'ended_with_card';

/**
 * Who started the work that asks a question, and where: routing (which conversation) and authorisation (who
 * may answer) start from here. MCP itself carries no such link; src/mcp ties each elicitation to the tool
 * call that caused it.
 */
export interface Origin {
  /** Chat user id of the person (or automation) that started the tool call. */
  userId: string;
  /** Workspace the call came from (Slack team id); absent when the deployment serves one workspace. */
  teamId?: string;
  /**
   * The Enterprise Grid org (E…) whose org-wide installation served the call, beside the workspace it came from;
   * absent for a workspace's own installation. Its token makes the question's calls, and the org leaving ends it.
   */
  enterpriseId?: string;
  /** Slack app (api_app_id) that received the command; a click or submit for another app is refused. */
  appId?: string;
  /** Conversation where the call was started, and the thread in it, when known. */
  channelId?: string;
  threadTs?: string;
  /** The API call (POST /api/v1/calls) this work runs for: its questions are listed on it. */
  callId?: string;
  /**
   * A person's run (its Cancel button's name, src/slack/run-cancels.ts): kept with the call's 2026 round, so a
   * survivor that resumes the call runs it under the same name and that button still stops it.
   */
  runId?: string;
}

/** What an MCP server says about itself in `initialize` (`serverInfo`), shown on the card. */
export interface ServerIdentity {
  name: string;
  version: string;
  /** Human-readable name, when the server sends one. */
  title?: string;
}

/**
 * Who may answer a question, resolved when it is asked (user groups expanded to their members). Absent on a
 * question: only its `userId` may answer.
 */
export interface Answerers {
  /** Chat user ids that may answer, named one by one (the requester and listed people). */
  users: string[];
  /** User groups whose members may answer: the group's id (to name it) and its members when asked. */
  groups?: { id: string; members: string[] }[];
  /** Anyone in this conversation may answer as well (membership is checked when they act). */
  channel?: string;
}

/** Where a question came from: an MCP server's elicitation, or the HTTP API / MCP endpoint (Automations). */
export type QuestionSource = 'mcp' | 'api';

/**
 * The durable 2026 round (src/rounds) a question answers requests of: the continuation's id, the round's
 * number and the keys of the requests it asks (one, or several form requests asked as one form). Such a
 * question's end is recorded in the round by whichever replica reads it off the ended stream, so it needs no
 * living holder: the orphan sweep leaves it alone.
 */
export interface RoundRef {
  id: string;
  round: number;
  keys: string[];
}

/** A new question as the MCP side hands it to the relay. */
export interface NewQuestion {
  /** Configured server name (key of `mcpServers`). */
  server: string;
  /** Slack user id of the person who must answer. */
  userId: string;
  /** The tool call's requester and place; `origin.userId` is `userId` unless routing says otherwise. */
  origin: Origin;
  message: string;
  /** The form schema (`requestedSchema`) exactly as the server sent it. */
  requestedSchema: unknown;
  /** Time the person has to answer, in milliseconds. */
  timeoutMs: number;
  /** URL mode: the link the person is asked to open (requestedSchema is then null). */
  url?: UrlLink;
  /** The asking server's own name and version, when it gave them. */
  serverInfo?: ServerIdentity;
  /** Who may answer; only `userId` when absent. */
  answerers?: Answerers;
  /** Where it came from (metrics label); 'mcp' when absent. */
  source?: QuestionSource;
  /**
   * Where the card goes when the asker says so (an API question's `to`); absent: the server's routing policy.
   */
  place?: Place;
  /**
   * The API client that asked. Such a question is *detached*: no MCP session waits for it, no replica holds
   * it (the orphan sweep leaves it alone), and its outcome, content included, stays in the record until it
   * expires, for the client to read.
   */
  client?: string;
  /** An API question's webhook: where its end is POSTed (issue 16.5). */
  callbackUrl?: string;
  /** An API client's own data about the question, kept with it as given. */
  metadata?: Record<string, unknown>;
  /** The durable round request it answers; its accepted content stays in the record until it ends (retention). */
  round?: RoundRef;
}

/**
 * Where a card is posted: a person's DM, a multi-person DM with several people (and the bot), one card in each
 * of several such DMs (more people than one takes; a group of one is that person's DM), or a conversation (in
 * a thread when `threadTs` is set).
 */
export type Place =
  { dm: string } | { mpim: string[] } | { mpims: string[][] } | { channel: string; threadTs?: string };

/** A URL-mode question's link. */
export interface UrlLink {
  url: string;
  elicitationId: string;
  /**
   * The cards of the previous round's question for the same 2026 URL request (same `elicitationId`, one
   * call): this question's card replaces them (the same messages are updated) instead of being posted anew.
   */
  replaces?: CardRef[];
}

/** A posted Slack card: its conversation and message ts. */
export interface CardRef {
  channel: string;
  ts: string;
}

/** A question as stored (one Redis hash). */
export interface Question extends NewQuestion {
  id: string;
  state: QuestionState;
  /** Replica that holds the MCP session waiting for the outcome. */
  holder: string;
  /** Unix epoch milliseconds, taken from Redis TIME at creation. */
  createdAt: number;
  deadline: number;
  /** The Slack card, once posted (the first one when the question went to several places). */
  card?: CardRef;
  /** The question's other cards, when it went to several multi-person DMs (Place `mpims`). */
  moreCards?: CardRef[];
  outcome?: Outcome;
  reason?: EndReason;
  /** When it ended, Unix epoch milliseconds from Redis TIME. */
  endedAt?: number;
  /** The person whose act (submit, Decline, close, link click) ended it; absent for timeouts and the like. */
  endedBy?: string;
}

/**
 * One person's progress through a form, kept with the question (never in the view's private_metadata):
 * what they entered so far, the page they are on, and whether the review of those answers is showing.
 */
export interface Draft {
  /** 0-based page the person is on. */
  page: number;
  answers: Content;
  /** The review view of `answers` was pushed; Send relays these answers. */
  reviewing: boolean;
}

/** What a person's list of recent answers keeps of a question that ended (the App Home shows it). */
export interface AnswerSummary {
  questionId: string;
  server: string;
  message: string;
  state: Exclude<QuestionState, 'pending'>;
  reason: EndReason;
  /** When the question ended, Unix epoch milliseconds. */
  at: number;
  mode: 'form' | 'url';
}

/**
 * Whose questions: one workspace's (Slack team id; with `enterpriseId`, only those it asked through that org's
 * installation), those asked through an org-wide installation (Enterprise Grid org id, whichever of its
 * workspaces), or all of a deployment that serves only one workspace.
 */
export type WorkspaceScope =
  { teamId: string; enterpriseId?: string } | { enterpriseId: string } | 'every_workspace';

/** Result of the one atomic transition: the winner gets the question, everyone else the state it was already in. */
export type FinishResult =
  { won: true; question: Question } | { won: false; state: QuestionState | 'missing'; question?: Question };

/**
 * The people a question names as its answerers (listed users and the members of its user groups), or its
 * person when it names none: whose inbox (App Home) lists it while it is pending. Anyone-in-the-channel
 * answerers cannot be listed ahead of time and are left out.
 */
export function namedAnswerers(question: Pick<Question, 'userId' | 'answerers'>): string[] {
  return question.answerers ? peopleNamed(question.answerers) : [question.userId];
}

/** The people answerers name one by one or through their user groups, each once, in the order named. */
export const peopleNamed = (answerers: Answerers): string[] => [
  ...new Set([...answerers.users, ...(answerers.groups ?? []).flatMap((group) => group.members)]),
];

/** Every card of a question that is out: the first, then the others. */
export const cardsOf = (question: Pick<Question, 'card' | 'moreCards'>): CardRef[] =>
  question.card ? [question.card, ...(question.moreCards ?? [])] : [];
