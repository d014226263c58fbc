// The work of the composition root (src/main.ts) that hangs off the API's ended stream: durable 2026 rounds
// (retries out at stop, the take-over of a stopped replica's rounds, each round question's end recorded) and
// signed webhook deliveries.
import { questionView, type RunningApi } from '../api/index.js';
import { systemClock } from '../clock.js';
import { roundAnswersOf, type McpHub } from '../mcp/index.js';
import { roundRecorder, startTakeOver, type ResumedCall } from '../rounds/index.js';
import type { Slack } from '../slack/index.js';
import { startWebhooks, type GaveUp } from '../webhooks/index.js';
import type { Wiring } from './store-side.js';

/** `/mcp run`'s own run, which the API's calls and a resumed round's retry go through too. */
export type RunTool = ReturnType<Slack['listen']>['runTool'];

/** Durable 2026 rounds: retries out at stop, the take-over of a stopped replica's rounds, and their records. */
export async function startRounds(
  w: Wiring,
  sides: { hub: McpHub; api: RunningApi; runTool: RunTool },
): Promise<void> {
  const { hub, api, runTool } = sides;
  const { parts, opened, holderId, logger } = w;
  // Before the API's calls and connection stop: a durable retry that answers now ends its call as always.
  parts.push('durable retries out', () => hub.leave());
  // Rounds whose replica stopped: their retry is sent here and the result posted where the run was; an API
  // call's record ends here too.
  const resume = (call: ResumedCall): Promise<unknown> =>
    call.origin.callId === undefined ? runTool(call) : api.resumeCall(call);
  // Claims held for the replica lease, and lapsed ones looked for as often as the orphan sweep looks.
  const { lease, sweepEveryMs } = w.timings;
  const claims = { store: w.roundStore, claimant: holderId, clock: systemClock, leaseMs: lease.ttlMs };
  const takeOver = { ...claims, everyMs: sweepEveryMs, logger, resume };
  parts.push('rounds take-over', startTakeOver(takeOver));
  // Each round question's end is recorded in its round by one replica, so a round outlives its holder.
  const recordRounds = {
    ...claims,
    logger,
    resume,
    question: (id: string) => opened.store.get(id),
    answersOf: roundAnswersOf,
  };
  await api.ended.consume('rounds', roundRecorder(recordRounds));
}

/** Signed webhook deliveries of ended questions and calls, read from the API's ended stream. */
export async function startWebhookDeliveries(w: Wiring, api: RunningApi): Promise<void> {
  const webhookDeps = {
    get: (id: string) => w.opened.store.get(id),
    callEnded: api.callEnded,
    view: questionView,
    clock: systemClock,
    logger: w.logger,
  };
  const onGaveUp = (gaveUp: GaveUp): Promise<void> => w.audit.webhookGaveUp(gaveUp);
  const onAttempt = w.metrics.webhookAttempt;
  await startWebhooks(w.config, { ...webhookDeps, ended: api.ended, onGaveUp, onAttempt }, w.parts);
}
