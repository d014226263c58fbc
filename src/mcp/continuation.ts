// A durable call's rounds as this replica sees them (rounds.ts drives them): each `input_required` answer is
// recorded in the round store before its questions are asked, each answer as it comes, and the answer that
// completes a round claims its retry for this replica (atomically, see src/rounds). While the retry is out the
// claim is held; if this replica dies, the claim lapses and a survivor's take-over resumes the call from the
// store (ToolCall.resume), sending the retry itself.
import { ElicitResultSchema } from '@modelcontextprotocol/core';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { McpClientError, type DurableRound, type ResumedRound } from './types.js';
import type { LeavingRounds } from './leaving-rounds.js';
import type { Question, RoundRef } from '../relay/types.js';
import { toElicitResult } from './elicitation.js';
import { combineForms } from './round-form.js';
import type { KeptRequest } from './round-bounds.js';

/**
 * The answers a round keeps for one of its questions, by request key, as the call's own process would have sent
 * them: what any replica records when the question's end reaches it (src/rounds/recorder.ts). `requests` are the
 * question's requests (Question.round.keys) as the round recorded them; several are one combined form, whose
 * answer splits back per key as round-form.ts splits it. Throws McpClientError when they cannot be combined.
 */
export function roundAnswersOf(
  question: Pick<Question, 'outcome' | 'url' | 'requestedSchema'>,
  requests: { key: string; request: unknown }[],
): [string, ElicitResult][] {
  const outcome = question.outcome ?? { action: 'cancel' };
  const answer = toElicitResult(outcome, question.url ? 'url' : 'form', question.requestedSchema);
  const [only, ...more] = requests;
  if (only !== undefined && more.length === 0) return [[only.key, answer]];
  const combined = combineForms(requests.map(({ key, request }) => [key, paramsOf(request)]));
  if (combined === undefined) {
    throw new McpClientError('tool_failed', '', 'the recorded requests of a combined form no longer combine');
  }
  return combined.split(answer);
}

/** The `params` of a recorded `inputRequests` entry (`{method, params}`). */
function paramsOf(request: unknown): unknown {
  return typeof request === 'object' && request !== null && 'params' in request ? request.params : undefined;
}

/** What rounds.ts needs to keep a call's rounds durable. */
export interface DurableCall {
  rounds: LeavingRounds;
  call: Pick<DurableRound, 'server' | 'tool' | 'args' | 'origin'>;
  /** When a new round's answers stop being waited for, epoch ms. */
  deadline: () => number;
  /** The round this call resumes, when a survivor took it over. */
  resume?: ResumedRound;
}

/** The parts of a retry that carry a round's answers. */
export interface Retry {
  inputResponses?: Record<string, ElicitResult>;
  requestState?: string;
}

export class Continuation {
  private id: string | undefined;
  private claimedRound: number;

  constructor(private readonly durable: DurableCall) {
    this.id = durable.resume?.id;
    this.claimedRound = durable.resume?.round ?? 0;
  }

  /** The retry of the resumed round (its answers as recorded, its requestState untouched); {} for a new call. */
  resumed(): Retry {
    const resume = this.durable.resume;
    if (resume === undefined) return {};
    const answers = Object.entries(resume.answers).map(([key, json]): [string, ElicitResult] => [
      key,
      this.answerOf(key, json),
    ]);
    return {
      ...(answers.length === 0 ? {} : { inputResponses: Object.fromEntries(answers) }),
      ...(resume.requestState === undefined ? {} : { requestState: resume.requestState }),
    };
  }

  /**
   * Records round `round` (the first opens the continuation) before anyone is asked, each request as kept
   * (round-bounds.ts keptRequest); one that asks nothing is recorded claimed by this replica (DurableRounds),
   * whose retry goes at once.
   */
  async record(round: number, requestState: string | undefined, entries: [string, KeptRequest][]) {
    const { rounds, call } = this.durable;
    const unkept = entries.find(([key]) => !key.isWellFormed());
    if (unkept !== undefined) throw this.unkeptKey(round, unkept[0]);
    const requests = entries.map(([key, request]) => ({ key, request }));
    const next = {
      ...(requestState === undefined ? {} : { requestState }),
      requests,
      deadline: this.durable.deadline(),
    };
    if (this.id === undefined) this.id = await rounds.open({ ...call, ...next, round });
    else if (!(await rounds.next(this.id, next))) throw this.lost(round);
    if (entries.length === 0) this.claimedRound = round;
  }

  /** The requests `keys` of round `round`, as their question names them (once the round is recorded). */
  ref(round: number, keys: string[]): RoundRef | undefined {
    return this.id === undefined ? undefined : { id: this.id, round, keys };
  }

  /** Records one answer of round `round`; the last one claims the retry for this replica. */
  async answered(round: number, key: string, answer: ElicitResult): Promise<void> {
    if (this.id === undefined) return;
    if (await this.durable.rounds.answered(this.id, round, key, answer)) this.claimedRound = round;
  }

  /** Fails unless this replica claimed round `round`'s retry (it was taken over, or the round is gone). */
  assertClaimed(round: number): void {
    if (this.id !== undefined && this.claimedRound !== round) throw this.lost(round);
  }

  /** Holds the claim while a retry is out; call the returned stop when it answered. */
  hold(): () => void {
    return this.id === undefined ? () => undefined : this.durable.rounds.hold(this.id);
  }

  /**
   * A retry failed because this replica is stopping (its session closed after the hub's grace): the round
   * stays in the store for a survivor to send again (leaving-rounds.ts), and the call is not answered here.
   */
  leftToSurvivor(): boolean {
    return this.id !== undefined && this.durable.rounds.left();
  }

  /** The call ended here (result or failure): its continuation goes. */
  async finished(): Promise<void> {
    if (this.id !== undefined) await this.durable.rounds.finished(this.id);
  }

  private answerOf(key: string, json: unknown): ElicitResult {
    const parsed = ElicitResultSchema.safeParse(json);
    if (parsed.success) return parsed.data;
    const { server, tool } = this.durable.call;
    throw new McpClientError(
      'tool_failed',
      server,
      `the recorded answer to ${key} of ${tool} cannot be read`,
      {
        cause: parsed.error,
      },
    );
  }

  /**
   * A request key holding a lone UTF-16 surrogate (JSON allows "\udc80"): the round store keeps keys as UTF-8 text,
   * which has no bytes for it, so the stored round could no longer be read (a survivor's take-over, the recorder of
   * its answers) and its answers would go back under another key. Refused before anyone is asked.
   */
  private unkeptKey(round: number, key: string): McpClientError {
    const { server, tool } = this.durable.call;
    return new McpClientError(
      'tool_failed',
      server,
      `${server} asked round ${round} of ${tool} under a request key ${JSON.stringify(key.slice(0, 60))} that is not ` +
        'well-formed text (a lone UTF-16 surrogate), which the round store cannot keep',
    );
  }

  private lost(round: number): McpClientError {
    const { server, tool } = this.durable.call;
    return new McpClientError(
      'tool_failed',
      server,
      `round ${round} of ${tool} on ${server} is no longer this replica's to send: the round store lost it or another replica took it over`,
    );
  }
}
