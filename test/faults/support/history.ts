// History checker for fault runs (Jepsen style, kept small): the run records each question it created, every
// MCP response (an outcome handed to the waiting holder) and every Slack card state (the outcome the winner
// of the transition showed), then check() lists every broken invariant:
//   1. at most one MCP response per question;
//   2. every question ended, by its deadline plus the documented grace, and none timed out before its deadline
//      (endedAt and deadline are both Redis TIME, so no wall clock of the test is involved);
//   3. no accept carries content that fails the question's schema;
//   4. the MCP response is the outcome the card shows, and at most one card update per question.
import { parseFormSchema } from '../../../blocks/schema.js';
import { validationErrors } from '../../../blocks/validate.js';
import type { EndReason, Outcome, Question } from '../../../src/relay/types.js';

export interface Ended {
  /** Redis TIME when the transition won, epoch ms (the record's endedAt). */
  endedAt: number;
  outcome: Outcome;
  /** The record no longer holds the accepted content (dropped once the holder had it): only the action is compared. */
  contentDropped?: boolean;
  /** Why it ended, when known: a `timed_out` end before the deadline is early. */
  reason?: EndReason;
}

interface Entry {
  question: Question;
  responses: Outcome[];
  cards: Outcome[];
  ended?: Ended;
}

export class History {
  private readonly entries = new Map<string, Entry>();

  /** A question the run created (the record create returned, with its Redis-TIME deadline). */
  created(question: Question): void {
    this.entries.set(question.id, { question, responses: [], cards: [] });
  }

  /** The MCP side received this outcome for the question (the holder's waiting request resolved). */
  response(id: string, outcome: Outcome): void {
    this.entry(id).responses.push(outcome);
  }

  /** The winner of the transition updated the card to show this outcome. */
  card(id: string, outcome: Outcome): void {
    this.entry(id).cards.push(outcome);
  }

  /** The stored end of the question, read back from Redis after the run. */
  ended(id: string, ended: Ended): void {
    this.entry(id).ended = ended;
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }

  /** Every violation, one line each; empty when the history is clean. */
  check(options: { graceMs: number }): string[] {
    const problems: string[] = [];
    for (const [id, e] of this.entries) {
      const say = (what: string) => problems.push(`${id}: ${what}`);
      if (e.responses.length !== 1) say(`${e.responses.length} MCP responses`);
      if (e.cards.length > 1) say(`${e.cards.length} card updates`);
      const [response] = e.responses;
      const [card] = e.cards;
      if (response && card && !sameOutcome(response, card)) {
        say(`MCP got ${JSON.stringify(response)} but the card shows ${JSON.stringify(card)}`);
      }
      if (response?.action === 'accept' && !validFor(e.question, response.content)) {
        say(`accepted invalid content ${JSON.stringify(response.content)}`);
      }
      if (!e.ended) say('never ended in Redis');
      else if (e.ended.endedAt > e.question.deadline + options.graceMs) {
        say(
          `ended ${e.ended.endedAt - e.question.deadline} ms after its deadline (grace ${options.graceMs} ms)`,
        );
      } else if (e.ended.endedAt < e.question.createdAt) say('ended before it was created');
      else if (e.ended.reason === 'timed_out' && e.ended.endedAt < e.question.deadline) {
        say(`timed out ${e.question.deadline - e.ended.endedAt} ms before its deadline`);
      }
      const stored = e.ended;
      const storedMatches = stored?.contentDropped
        ? response?.action === 'accept'
        : response && stored && sameOutcome(response, stored.outcome);
      if (response && stored && !storedMatches) {
        say(`MCP got ${JSON.stringify(response)} but Redis stored ${JSON.stringify(stored.outcome)}`);
      }
    }
    return problems;
  }

  private entry(id: string): Entry {
    const e = this.entries.get(id);
    if (!e) throw new Error(`history: ${id} was never created`);
    return e;
  }
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function validFor(question: Question, content: object): boolean {
  return Object.keys(validationErrors(parseFormSchema(question.requestedSchema), content)).length === 0;
}
