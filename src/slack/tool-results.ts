// Runs a tool for a person and shows what happens: in their DM with the bot, or, when the server routes its
// questions to the thread where the command ran (`route: thread`), in a thread the run starts in that
// conversation, so the questions, the progress and the result stay together where the team sees them. It
// shows a "working…" message that progress updates (progress-message.ts), then the result: inline text, a
// snippet file for long output, a readable summary of structured content, the error and its reason, or the
// links a -32042 answer asks them to open with a Retry button; once the server says every link is done,
// the call is retried without waiting for the click (link-retries.ts). A call whose 2026 round expired gets a
// Start again button, the same rerun. A person's run can be cancelled from its "working…" message
// (run-cancels.ts), after a survivor resumed it too: it runs under the name, and on the message, it had.
import {
  needsSnippet,
  resultMessage,
  runThreadMessage,
  threadUnavailableMessage,
  type Locale,
  type SlackMessage,
} from '../../blocks/index.js';
import type { ResumedRound, ToolCall, ToolResult } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';
import type { Locales } from './locales.js';
import type { SlackClients } from './workspaces.js';
import { askForLinks } from './link-retries.js';
import { MessageError } from './messages.js';
import { retried } from './retried.js';
import {
  ProgressMessage,
  messagePlaceOf,
  type KeptMessage,
  type ProgressOptions,
  type RunPlace,
} from './progress-message.js';
import type { CancelMark } from '../api/endpoint-calls.js';
import type { CancellableRun, RunCancels } from './run-cancels.js';
import type { UrlCompletions } from './url-completions.js';

export interface ToolResultsOptions extends ProgressOptions {
  /** For a long result's snippet file (files.getUploadURLExternal, then files.completeUploadExternal). */
  clients: SlackClients;
  locales: Locales;
  /** The person's DM channel with the bot (conversations.open, cached by the surface). */
  dmOf: (userId: string, teamId?: string) => Promise<string>;
  callTool: (call: ToolCall) => Promise<ToolResult>;
  /** Starts opening the person's MCP session to `server` while the run finds its place (ToolRunner.warm). */
  warm?: (server: string, person: Origin) => void;
  /** Whether the server asks in the thread where the command ran (its `slack.route` is `thread`); default no. */
  routesToThread?: (server: string) => boolean;
  /** The links of -32042 answers being waited on (notifications/elicitation/complete). */
  completions: UrlCompletions;
  /**
   * True for the first claim of the retry of the -32042 answer at `channel`/`ts`, across replicas: the
   * person's click and the retry once every link is done race for it, and only the winner reruns the call.
   */
  claimRetry: (channel: string, ts: string) => Promise<boolean>;
  /**
   * True for the first claim of the slash command with this `trigger_id`, across replicas (a replay is
   * refused); also claims an arguments form's run (`view:<view id>`, claimFormRun).
   */
  claimCommand: (triggerId: string) => Promise<boolean>;
  /** A person's runs cancelled from their "working…" message, on any replica; absent: no Cancel button. */
  cancels?: RunCancels;
}

/** A tool run: who started it, where (origin), and with which arguments. */
export interface ToolRun {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  origin: Origin;
  /** A 2026 round another replica started, taken over from the round store: the run starts with its retry. */
  resume?: ResumedRound;
}

export class ToolResults {
  constructor(private readonly opts: ToolResultsOptions) {}

  /**
   * Whether a run of `server` started at `origin` goes on in a thread of that conversation: its server
   * routes there, and the conversation is not the person's DM with the bot (which needs no thread).
   */
  async inThread(server: string, origin: Origin): Promise<boolean> {
    const { channelId, userId, teamId } = origin;
    if (channelId === undefined || !(this.opts.routesToThread?.(server) ?? false)) return false;
    return channelId !== (await this.opts.dmOf(userId, teamId));
  }

  /**
   * Calls the tool for `origin.userId`; its questions, progress and result go to its place. Resolves with the
   * result once posted. `warmed`: the caller warmed this run itself (warm()) when the person asked for it, so
   * the run does not warm again (a second warm-up for one run, a no-op in the pool but one more call).
   */
  async run(call: ToolRun, { warmed = false }: { warmed?: boolean } = {}): Promise<ToolResult> {
    if (!warmed) this.opts.warm?.(call.server, call.origin);
    const place = await this.placeOf(call);
    const { cancellable, kept } = (await this.cancellableRun(call, place)) ?? {};
    const progress = new ProgressMessage(place, this.opts, cancellable?.target, kept);
    // The run's name goes with the call's 2026 rounds, for a survivor that resumes it.
    const runId = cancellable === undefined ? {} : { runId: cancellable.target.run };
    const origin = { ...place.origin, ...runId };
    const result = await this.callShowingProgress({ ...call, origin }, progress, cancellable);
    if (cancellable?.cancelled === true) {
      // Whatever the server answered once cancelled (its result, or the abort as an error) is not shown.
      await progress.cancelled();
      return result;
    }
    await progress.end(result.isError);
    if (result.urlRequired) {
      const rerun = (again: ToolRun) => this.run(again);
      const links = { ...this.opts, rerun };
      const { final } = await askForLinks(links, place, call.args, result, result.urlRequired);
      // A person's run ends here (its retry posts its own result); an API call goes on with the retry's result.
      return call.origin.callId === undefined ? result : final;
    }
    await this.show(place, call.args, result);
    return result;
  }

  /**
   * A person's own run (an automation's, an API call, is the automation's to stop), and the message it keeps: a
   * run resumed from a replica that died goes on under its name, on its message when it is in the run's place.
   */
  private async cancellableRun(
    call: ToolRun,
    place: RunPlace,
  ): Promise<{ cancellable: CancellableRun; kept: KeptMessage } | undefined> {
    const { cancels } = this.opts;
    if (cancels === undefined || call.origin.callId !== undefined) return undefined;
    const owner = place.origin.userId;
    const left = call.resume === undefined ? undefined : call.origin.runId;
    const cancellable = left === undefined ? cancels.start(owner) : cancels.adopt(left, owner);
    const posted = (ts: string): void =>
      cancels.noteMessage(cancellable.target.run, { channel: place.channel, ts });
    const at = left === undefined ? undefined : await cancels.messageOf(left);
    // A message elsewhere (the thread refused the bot since, so the run is in the DM) is left as it is.
    const ts = at?.channel === place.channel ? { ts: at.ts } : {};
    return { cancellable, kept: { posted, ...ts } };
  }

  /** Calls the tool, its progress shown; a person's run with the signal its Cancel button aborts. */
  private async callShowingProgress(
    call: ToolRun,
    progress: ProgressMessage,
    cancellable: CancellableRun | undefined,
  ): Promise<ToolResult> {
    const onProgress = progress.update.bind(progress);
    // A run keeps its 2026 rounds in the round store, so a survivor can finish it: a person's run posts its
    // result, an API call's run also ends the call's record on whichever replica resumes it.
    const toolCall = { ...call, onProgress, durable: true as const };
    try {
      if (cancellable === undefined) return await this.opts.callTool(toolCall);
      return await cancellable.run((signal) => {
        // Its message, with the Cancel button, goes up a while after the call starts, unless progress comes first.
        progress.started();
        return this.opts.callTool({ ...toolCall, signal });
      });
    } catch (error) {
      // An unexpected failure still ends the "working…" message; the error goes on to be logged.
      await progress.end(true);
      throw error;
    }
  }

  /**
   * Gets a run `origin` just asked for under way before it is claimed and announced: the person's MCP session
   * starts opening and their DM is looked up (the run's place needs it), each waiting for the run to take it.
   */
  warm(server: string, origin: Origin): void {
    this.opts.warm?.(server, origin);
    // A failed lookup is the run's to meet: it asks again.
    this.opts.dmOf(origin.userId, origin.teamId).catch(() => undefined);
  }

  /** A Cancel click on the run `runId`, on any replica (RunCancels.mark); `none` without cancels. */
  async cancelRun(runId: string): Promise<CancelMark | 'unrecorded'> {
    return (await this.opts.cancels?.mark(runId)) ?? 'none';
  }

  /** Claims the `/mcp run` with this `trigger_id` (see ToolResultsOptions.claimCommand). */
  claimCommand(triggerId: string): Promise<boolean> {
    return this.opts.claimCommand(triggerId);
  }

  /**
   * Claims the run of the `/mcp run` arguments form with this view id, as a command's trigger_id is claimed:
   * Slack may deliver one view_submission twice, and a signed one can be replayed. The same claims serve
   * both; the `view:` prefix keeps the two kinds of id apart.
   */
  claimFormRun(viewId: string): Promise<boolean> {
    return this.opts.claimCommand(`view:${viewId}`);
  }

  /** Claims the retry of the -32042 answer at `channel`/`ts` (see ToolResultsOptions.claimRetry). */
  claimRetry(channel: string, ts: string): Promise<boolean> {
    return this.opts.claimRetry(channel, ts);
  }

  /**
   * The run's thread (kept when the run already is in one, as a retry is), or the person's DM. The origin
   * carries the thread, so the run's questions are asked in it too; when the conversation refuses the bot
   * (not a member, archived), the run goes on in the DM, which says why, and so do its questions.
   */
  private async placeOf(call: ToolRun): Promise<RunPlace> {
    const { server, tool, origin } = call;
    const [dm, locale, inThread] = await Promise.all([
      this.opts.dmOf(origin.userId, origin.teamId),
      this.opts.locales.of(origin.userId, origin.teamId),
      this.inThread(server, origin),
    ]);
    const base = { server, tool, locale };
    const conversation = origin.channelId;
    if (conversation === undefined || !inThread) return { ...base, origin, channel: dm };
    const started = origin.threadTs ?? (await this.startThread({ ...base, origin }, conversation));
    if (typeof started === 'string') {
      return { ...base, origin: { ...origin, threadTs: started }, channel: conversation, threadTs: started };
    }
    const place = { ...base, origin: outsideConversation(origin), channel: dm };
    await this.post(place, threadUnavailableMessage({ channelId: conversation, ...started, locale }));
    return place;
  }

  /** Posts the message a run's thread hangs from: its ts, or Slack's error code when the bot may not post. */
  private async startThread(
    place: { origin: Origin; server: string; tool: string; locale: Locale },
    channel: string,
  ): Promise<string | { error: string }> {
    const message = runThreadMessage({ userId: place.origin.userId, ...place });
    try {
      return await this.opts.messages.post({ channel, teamId: place.origin.teamId }, message);
    } catch (error) {
      if (!(error instanceof MessageError)) throw error;
      const code = error.slackError;
      this.opts.logger.warn({ server: place.server, channel, slackError: code }, 'cannot start a run thread');
      return { error: code };
    }
  }

  private async show(place: RunPlace, args: Record<string, unknown>, result: ToolResult): Promise<void> {
    const common = { server: place.server, tool: place.tool, locale: place.locale };
    // A call whose round expired can only start again: its message carries the button that does.
    const owner = place.origin.userId;
    const restart = result.restartable
      ? { restart: { server: place.server, tool: place.tool, args, owner } }
      : {};
    const outcome = {
      ...common,
      isError: result.isError,
      text: result.text,
      structured: result.structured,
      ...restart,
    };
    if (!needsSnippet(result.text)) {
      await this.post(place, resultMessage(outcome));
      return;
    }
    await this.post(place, resultMessage({ ...outcome, attached: true }));
    try {
      await this.attach(place, result.text);
    } catch (error) {
      this.opts.logger.warn({ err: error, server: place.server, tool: place.tool }, 'snippet upload failed');
      await this.post(place, resultMessage({ ...outcome, shortened: true }));
    }
  }

  /** Posts in the run's DM or thread; resolves with the message's ts. */
  private post(place: RunPlace, message: SlackMessage): Promise<string> {
    return this.opts.messages.post(messagePlaceOf(place), message);
  }

  /** The long output as a text snippet in the run's DM or thread (filesUploadV2: get URL, upload, complete). */
  private async attach(place: RunPlace, text: string): Promise<void> {
    const client = await this.opts.clients.for(place.origin.teamId);
    const name = place.tool.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'result';
    const { channel, threadTs } = place;
    const destination = threadTs ? { channel_id: channel, thread_ts: threadTs } : { channel_id: channel };
    const upload = () =>
      client.filesUploadV2({
        ...destination,
        content: text,
        filename: `${name}.txt`,
        title: `${place.tool} (${place.server})`,
        snippet_type: 'text',
      });
    // Tried again whole after a 429 or a passing failure: an upload never completed is discarded by Slack.
    await retried(upload, this.opts.clock);
  }
}

/** The origin without its conversation: the run's questions then go to the DM, as its result does. */
function outsideConversation(origin: Origin): Origin {
  const { userId, teamId, appId, callId } = origin;
  return {
    userId,
    ...(teamId ? { teamId } : {}),
    ...(appId ? { appId } : {}),
    ...(callId ? { callId } : {}),
  };
}
