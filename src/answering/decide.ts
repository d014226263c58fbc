// What a person's act on a question means, decided as a pure function of the question, the person's draft
// (kept with the question, never in a view), the act and the server's policy. The service (service.ts) then
// acts on the decision; the Slack listeners only translate payloads into acts and decisions into acks.
//
// Whatever path leads to accept (one page, pages, review), the content is the person's own draft, validated
// against the whole requested schema just before the transition; a failure sends them to the page to fix.
// The draft against the form's pages (the page on screen, what it holds, the page to fix): draft-pages.ts.
import {
  approvesSomething,
  mergePageContent,
  pageCount,
  pageFields,
  parseFormSchema,
  readSubmission,
  type FormSpec,
  type Locale,
} from '../../blocks/index.js';
import { BACKSTOP_GRACE_MS } from '../relay/grace.js';
import type { Answerers, Draft, EndReason, Outcome, Question, QuestionState } from '../relay/types.js';
import { pageToFix, shownPage, typedOnPage, workingDraft } from './draft-pages.js';

/** Who acts, as an interaction payload says: the user, the workspace, the org it was sent for, and the app. */
export interface Actor {
  user: { id: string };
  team?: { id: string; enterprise_id?: string } | null;
  enterprise?: { id: string } | null;
  api_app_id?: string;
}

/** Why someone's click or submit changed nothing. */
export type Refusal =
  /**
   * `reason`: why it ended, when known (a question whose holder died says so); `by`: who ended it, when a person
   * did (the Slack user id), so the others who try are told who answered.
   */
  | { ended: QuestionState | 'missing'; reason?: EndReason; by?: string }
  | { notFor: Pick<Question, 'userId' | 'answerers'> }
  /**
   * The question is for anyone in a channel whose members Slack no longer lists (deleted, archived, or left by
   * the bot), and the actor is none of the people it names: whether they may answer cannot be checked, now or
   * later, so trying again does not help; only the people it names can still answer.
   */
  | { channelUnchecked: { channel: string; answerers: Answerers } }
  | { otherWorkspace: true };

/**
 * What the person did. `shownBlockIds`: the input blocks of the form page on their screen; `values`: that
 * page's view.state.values (Slack sends them with a submit and with a click in the view, such as Back).
 */
export type Act =
  | { kind: 'open' }
  | { kind: 'submit'; values: unknown; shownBlockIds: readonly string[] }
  | { kind: 'back'; values: unknown; shownBlockIds: readonly string[] }
  | { kind: 'send' }
  | { kind: 'decline' }
  | { kind: 'close'; from: 'form' | 'review'; cleared: boolean }
  | { kind: 'consent' }
  /** A 2026 URL card's Cancel: the person gives up on the link, and the call ends cancelled. */
  | { kind: 'cancel' };

/** The server's answering policy (its `slack` config). */
export interface AnswerPolicy {
  review: 'always' | 'never' | 'auto';
  onClose: 'cancel' | 'keep';
}

export interface Situation {
  /** The question as stored; undefined when there is none (expired, never existed). */
  question: Question | undefined;
  actor: Actor;
  /**
   * Whether the actor is among the question's answerers (only consulted once refusalBeforeMembership passed);
   * 'unchecked': they are not named and the question's channel's members can no longer be listed.
   */
  mayAnswer: boolean | 'unchecked';
  /** The actor's draft of the form, as stored. */
  draft: Draft | undefined;
  act: Act;
  policy: AnswerPolicy;
  /** Language of field errors; English when absent. */
  locale?: Locale;
  /** When the act came (epoch ms, the relay's clock); absent: the deadline is not checked. */
  now?: number;
}

/** Field errors keyed by block_id. */
export type FieldErrors = Record<string, string>;

export type Decision =
  | { kind: 'refuse'; refusal: Refusal }
  /** Nothing changes: Back from the review, a close the policy keeps open, an act that does not fit the question's mode. */
  | { kind: 'ignore' }
  /** Store `draft` and show the form at its page, pre-filled; `errors`: that page's, when sent back to fix them. */
  | { kind: 'page'; draft: Draft; errors?: FieldErrors }
  /** The page on screen has errors; nothing is stored. */
  | { kind: 'errors'; errors: FieldErrors }
  /** Store `draft` (reviewing) and show the review of its answers. */
  | { kind: 'review'; draft: Draft }
  | { kind: 'finish'; outcome: Outcome; reason: EndReason };

/**
 * Why the actor may not act on this question, short of asking who its answerers are; undefined when they may
 * ask. `now` (epoch ms): a question still pending BACKSTOP_GRACE_MS past its deadline is over all the same (its
 * timeout job could not run, Redis being away, and its holder has told the server cancel): a late act must not
 * end it otherwise.
 */
export function refusalBeforeMembership(
  question: Question | undefined,
  actor: Actor,
  now?: number,
): Refusal | undefined {
  if (!question) return { ended: 'missing' };
  const { appId } = question.origin;
  if (!fromQuestionsPlace(question.origin, actor) || (appId && actor.api_app_id !== appId)) {
    return { otherWorkspace: true };
  }
  if (question.state !== 'pending') return endedAs(question);
  if (now !== undefined && now >= question.deadline + BACKSTOP_GRACE_MS) return { ended: 'cancelled' };
  return undefined;
}

/**
 * Whether the actor acts from where the question was asked: its workspace or, for a question an org-wide
 * installation serves (`origin.enterpriseId`), any workspace of that org. Slack sends an org-installed app's
 * view_submission and view_closed with `team: null` and the org in `enterprise` (its view payload reference:
 * "Null if the app is org-installed"); one installation serves the whole org, whose people keep one user id in
 * every workspace of it, so who may answer is left to the question's answerers.
 */
function fromQuestionsPlace(origin: Question['origin'], actor: Actor): boolean {
  if (!origin.teamId || actor.team?.id === origin.teamId) return true;
  const org = actor.team?.enterprise_id ?? actor.enterprise?.id;
  return origin.enterpriseId !== undefined && org === origin.enterpriseId;
}

/** The refusal of an act on `question`, which has ended: its state, and who ended it when someone did. */
export function endedAs(question: Pick<Question, 'state' | 'endedBy'>): Refusal {
  return question.endedBy ? { ended: question.state, by: question.endedBy } : { ended: question.state };
}

export function decide(situation: Situation): Decision {
  const { question, actor, act } = situation;
  const refusal = refusalBeforeMembership(question, actor, situation.now);
  if (refusal) return { kind: 'refuse', refusal };
  if (!question) return { kind: 'refuse', refusal: { ended: 'missing' } };
  if (situation.mayAnswer === 'unchecked') return { kind: 'refuse', refusal: uncheckedRefusal(question) };
  if (!situation.mayAnswer) return { kind: 'refuse', refusal: { notFor: question } };
  switch (act.kind) {
    case 'decline':
      return { kind: 'finish', outcome: { action: 'decline' }, reason: 'declined' };
    case 'consent':
      return question.url ? accept({}) : { kind: 'ignore' };
    case 'cancel':
      // The contract (PRODUCT.md) names no other reason for a cancel by the person's own act: a URL question's
      // 'closed' is shown as "Cancelled" (blocks/i18n.ts endedLabel), since a link has no form to close.
      return question.url
        ? { kind: 'finish', outcome: { action: 'cancel' }, reason: 'closed' }
        : { kind: 'ignore' };
    case 'close':
      if (act.from === 'review' && !act.cleared) return { kind: 'ignore' };
      if (situation.policy.onClose === 'keep') return { kind: 'ignore' };
      return { kind: 'finish', outcome: { action: 'cancel' }, reason: 'closed' };
    default:
      return question.url
        ? { kind: 'ignore' }
        : onForm(parseFormSchema(question.requestedSchema), situation, act);
  }
}

/** The refusal of an actor whose membership of the question's channel cannot be checked (it has one). */
export function uncheckedRefusal(question: Question): Refusal {
  const { answerers } = question;
  if (answerers?.channel === undefined) return { notFor: question };
  return { channelUnchecked: { channel: answerers.channel, answerers } };
}

function onForm(
  spec: FormSpec,
  situation: Situation,
  act: Extract<Act, { kind: 'open' | 'submit' | 'back' | 'send' }>,
): Decision {
  const draft = workingDraft(spec, situation.draft);
  switch (act.kind) {
    case 'open':
      // Respond again (after a close that onClose: keep left open, from the App Home, on another device) goes
      // on from the draft: the page the person was on, with every answer sent so far; only a first open is
      // empty. PRODUCT.md: they never lose an answer they typed. The review is not shown again until Next.
      return { kind: 'page', draft: { ...draft, reviewing: false } };
    case 'back':
      return back(spec, draft, act);
    case 'send':
      // Only answers the person was shown in a review are sent from one; anything else goes back to the form.
      if (!draft.reviewing) return { kind: 'page', draft };
      return fixFor(spec, draft, situation.locale) ?? accept(draft.answers);
    case 'submit':
      return submit(spec, draft, situation, act);
  }
}

function submit(
  spec: FormSpec,
  draft: Draft,
  situation: Situation,
  act: Extract<Act, { kind: 'submit' }>,
): Decision {
  const page = shownPage(spec, act.shownBlockIds, draft.page);
  // The screen shows no page of this form whole (a forged view): show the person theirs.
  if (page === undefined) return { kind: 'page', draft };
  const read = readSubmission(spec, act.values, {
    page,
    ...(situation.locale ? { locale: situation.locale } : {}),
  });
  if (!read.ok) return { kind: 'errors', errors: read.errors };
  const answers = mergePageContent(spec, draft.answers, read.content, page);
  if (page + 1 < pageCount(spec)) {
    return { kind: 'page', draft: { page: page + 1, answers, reviewing: false } };
  }
  const complete: Draft = { page, answers, reviewing: false };
  const fix = fixFor(spec, complete, situation.locale, page);
  if (fix) return fix;
  return wantsReview(spec, situation.policy)
    ? { kind: 'review', draft: { ...complete, reviewing: true } }
    : accept(answers);
}

/**
 * Back keeps what the page on screen holds, then shows the page before it. Nothing is validated: an unfinished
 * page is fine, and is checked on its Next. A screen showing no page whole (a forged view) changes no answers.
 */
function back(spec: FormSpec, draft: Draft, act: Extract<Act, { kind: 'back' }>): Decision {
  const page = shownPage(spec, act.shownBlockIds, draft.page);
  if (page === undefined) {
    return { kind: 'page', draft: { ...draft, page: Math.max(0, draft.page - 1), reviewing: false } };
  }
  const typed = typedOnPage(pageFields(spec, page), draft.answers, act.values);
  const answers = mergePageContent(spec, draft.answers, typed, page);
  return { kind: 'page', draft: { page: Math.max(0, page - 1), answers, reviewing: false } };
}

/**
 * Where the draft's answers fail the whole schema: errors on the page `onScreen`, or the first page with an
 * error shown with its errors; undefined when the answers are valid.
 */
function fixFor(
  spec: FormSpec,
  draft: Draft,
  locale: Locale | undefined,
  onScreen?: number,
): Decision | undefined {
  const fix = pageToFix(spec, draft.answers, locale);
  if (!fix) return undefined;
  const { page, errors } = fix;
  if (page === onScreen) return { kind: 'errors', errors };
  return { kind: 'page', draft: { page, answers: draft.answers, reviewing: false }, errors };
}

function wantsReview(spec: FormSpec, policy: AnswerPolicy): boolean {
  return policy.review === 'always' || (policy.review === 'auto' && approvesSomething(spec));
}

function accept(content: Draft['answers']): Decision {
  return { kind: 'finish', outcome: { action: 'accept', content }, reason: 'answered' };
}
