// The audit trail as the bot records it: each event goes to every configured log (the Redis Stream, which with
// AUDIT_DATABASE_URL feeds PostgreSQL: postgres-feed.ts) and is one structured log line (with a webhook's URL
// reduced to its origin: events.forLog). Recording never fails the work it describes: a log that refuses an
// event is reported (error log line, which carries the event) and the next one still gets it. list() reads
// PostgreSQL when configured, which keeps what Redis trims.
import type { Clock } from '../clock.js';
import type { RelayObserver } from '../relay/relay.js';
import type { Question } from '../relay/types.js';
import * as build from './events.js';
import type { AuditContentMode, AuditEvent, AuditLog, AuditPage, AuditQuery, AuditSource } from './types.js';

export interface AuditOptions {
  /** Where events are written, in order. */
  logs: AuditLog[];
  /** Where list() reads: the PostgreSQL log when there is one, else the Redis one. */
  reader: AuditLog;
  /** Closed after the logs, in order: the PostgreSQL feed, then the PostgreSQL log when it is the reader. */
  closeAfter?: { close(): Promise<void> }[];
  /** `audit.content`; default 'none'. */
  content?: AuditContentMode;
  clock: Pick<Clock, 'now'>;
  logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Who asked a question: MCP questions name their server and the person who ran the tool by default. */
  sourceOf?: (question: Question) => AuditSource;
}

/**
 * An API question names its client and the person asked (the first, when several are), or the channel asked
 * (whose members may answer: no one person); an MCP one its server and who ran the tool.
 */
function sourceOfQuestion(question: Question): AuditSource {
  if (question.client === undefined)
    return { kind: 'mcp', server: question.server, user: question.origin.userId };
  // A channel question's `userId` is its channel (relay/sources/intake.ts askedWhere): not a person.
  const channel = question.answerers?.channel;
  if (channel !== undefined) return { kind: 'api', client: question.client, channel };
  return { kind: 'api', client: question.client, user: question.userId };
}

export class Audit {
  /** Writes in flight, so settle() (shutdown, tests) can wait for them. */
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly opts: AuditOptions) {}

  /** The relay's observer: created on the creating replica, ended on the one whose transition won. */
  readonly questions: RelayObserver = {
    created: (question) => void this.questionCreated(question),
    ended: (question) => void this.questionEnded(question),
  };

  /** A question was created (Relay, for every source). Like every record, resolves once written; never rejects. */
  questionCreated(question: Question): Promise<void> {
    return this.record(build.questionCreated(question, this.sourceOf(question), this.opts.clock.now()));
  }

  /** A question ended: told once, by the replica whose transition won. */
  questionEnded(question: Question): Promise<void> {
    const content = this.opts.content ?? 'none';
    return this.record(
      build.questionEnded(question, this.sourceOf(question), content, this.opts.clock.now()),
    );
  }

  callCreated(call: build.AuditedCall, source: AuditSource): Promise<void> {
    return this.record(build.callCreated(call, source, this.opts.clock.now()));
  }

  callEnded(call: Parameters<typeof build.callEnded>[0], source: AuditSource): Promise<void> {
    return this.record(build.callEnded(call, source, this.opts.clock.now()));
  }

  webhookGaveUp(delivery: build.GivenUpDelivery): Promise<void> {
    return this.record(build.webhookGaveUp(delivery, this.opts.clock.now()));
  }

  list(query: AuditQuery): Promise<AuditPage> {
    return this.opts.reader.list(query);
  }

  /** Resolves once every event recorded so far is written (or reported as not written). */
  async settle(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  async close(): Promise<void> {
    await this.settle();
    await Promise.all(this.opts.logs.map((log) => log.close()));
    for (const part of this.opts.closeAfter ?? []) await part.close();
  }

  private sourceOf(question: Question): AuditSource {
    return (this.opts.sourceOf ?? sourceOfQuestion)(question);
  }

  private record(event: AuditEvent): Promise<void> {
    const logged = build.forLog(event);
    this.opts.logger.info({ audit: logged }, 'audit event');
    const write = Promise.all(
      this.opts.logs.map((log) =>
        log.append(event).catch((err: unknown) => {
          this.opts.logger.error({ err, audit: logged }, 'audit event not recorded');
        }),
      ),
    ).then(() => undefined);
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
    return write;
  }
}
