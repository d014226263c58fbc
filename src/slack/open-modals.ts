// Forms people have open, by question. When a question ends while someone still has its form open (the
// server withdrew it, it expired, the call that asked ended, another approver answered first), the form is
// replaced by a view saying it is no longer needed, instead of waiting for a submit that could only be refused.
// The person whose own act ended it keeps theirs only when that act was on the form (Slack closed it); a Decline
// is a button on the card or the App Home, so their form is still open and is replaced like anyone's.
import { uiText } from '../../blocks/index.js';
import { systemClock } from '../clock.js';
import type { RelayClock } from '../relay/ports.js';
import type { EndReason, Question } from '../relay/types.js';
import type { Locales } from './locales.js';
import { slackErrorCode } from './outbox/index.js';
import type { ModalRecords } from './state/index.js';
import type { QuestionObserver } from './surface.js';
import { retried } from './retried.js';
import { finishedView } from './texts.js';
import type { SlackClients } from './workspaces.js';

/** How long a form is remembered past its question's deadline, in ms (the timeout job may run a bit late). */
const REMEMBER_PAST_DEADLINE_MS = 60_000;

/**
 * The ends whose person's act was on the form itself, which Slack closed: its submit or the review's Send
 * ('answered'), its X ('closed'). A URL question's consent and cancel end with these too, but it has no form.
 */
const ENDED_FROM_THE_FORM: readonly EndReason[] = ['answered', 'closed'];

export interface OpenModalsDeps {
  records: ModalRecords;
  /** The question as stored now: a form that opened while its question ended is replaced once it is recorded. */
  questions: { get(id: string): Promise<Question | undefined> };
  clients: SlackClients;
  locales: Locales;
  logger: { warn(obj: object, msg: string): void };
  /** Epoch ms and the waits before a replacement Slack refused for now is tried again; default the system clock. */
  clock?: RelayClock;
}

export class OpenModals implements QuestionObserver {
  private readonly background = new Set<Promise<void>>();

  constructor(private readonly deps: OpenModalsDeps) {}

  /**
   * A form for `question` opened as view `viewId` for `userId`. The question may have ended while the form was
   * opening, its end's replacement already run and finding no form: read after the form is remembered, such a
   * question has its forms replaced now (once: each remembered form is taken by one replacement).
   */
  async opened(question: Question, viewId: string, userId: string): Promise<void> {
    const left = question.deadline - (this.deps.clock ?? systemClock).now();
    await this.deps.records.rememberModal(
      question.id,
      { viewId, userId },
      Math.max(left, 0) + REMEMBER_PAST_DEADLINE_MS,
    );
    const now = await this.deps.questions.get(question.id);
    if (now !== undefined && now.state !== 'pending') this.ended(now, now.endedBy);
  }

  started(): void {
    // Nothing is open for a question that just started.
  }

  /**
   * Replaces the forms still open: `byUserId`'s own form too, unless their act on it ended the question (Slack
   * closed it then); the reason is stored with the question, so every replica judges alike.
   */
  ended(question: Question, byUserId?: string): void {
    const done = this.retire(question, byUserId).catch((err: unknown) => {
      this.deps.logger.warn({ err, questionId: question.id }, 'open forms of an ended question not replaced');
    });
    this.background.add(done);
    void done.finally(() => this.background.delete(done));
  }

  /** Waits for the replacements in flight (shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.background]);
  }

  private async retire(question: Question, byUserId?: string): Promise<void> {
    const closedFor = endedFromTheForm(question) ? byUserId : undefined;
    const open = (await this.deps.records.takeModals(question.id)).filter((m) => m.userId !== closedFor);
    if (open.length === 0) return;
    const client = await this.deps.clients.for(question.origin.teamId);
    for (const modal of open) {
      const locale = await this.deps.locales.of(modal.userId, question.origin.teamId);
      const text = uiText(locale).ended[question.reason ?? 'timed_out'];
      const replace = () => client.views.update({ view_id: modal.viewId, view: finishedView(text, locale) });
      try {
        // A 429 or a passing failure is waited out (retried.ts): the form would otherwise stay open.
        await retried(replace, this.deps.clock);
      } catch (err) {
        // Most often the person closed the form meanwhile (not_found): there is nothing left to replace.
        this.deps.logger.warn(
          { err, slackError: slackErrorCode(err), questionId: question.id, viewId: modal.viewId },
          'could not replace an open form',
        );
      }
    }
  }
}

/** Whether the question's end was its person's act on the form (ENDED_FROM_THE_FORM). */
function endedFromTheForm(question: Question): boolean {
  return question.reason !== undefined && ENDED_FROM_THE_FORM.includes(question.reason);
}
