// What the page shows one person, built from what the bot really sent to the stand-in: their DM (messages
// with every update, ephemeral notes interleaved where they arrived), open modals with field errors, and
// App Home, each with the limit checker's verdict for the view-JSON inspector.
import {
  type EphemeralMessage,
  type SlackStandin,
  formatIssue,
  validateMessageBlocks,
  validateView,
} from '../standin/index.js';

export interface TimelineItem {
  kind: 'message' | 'ephemeral';
  /** Message ts (messages only). */
  ts?: string;
  channel: string;
  text?: string;
  blocks?: unknown[];
  /** How many times the message was updated (chat.update or replace_original). */
  updates: number;
  /** Slack-worded problems the limit checker found; empty = Slack accepts it. */
  issues: string[];
}

export interface ViewState {
  id: string;
  /** Changes whenever the view's content is replaced (views.update, response_action update). */
  hash: string;
  view: Record<string, unknown>;
  /** Field errors from the last `response_action: "errors"`, by block_id. */
  errors: Record<string, string>;
  issues: string[];
}

export interface PersonState {
  version: number;
  userId: string;
  channel: string;
  timeline: TimelineItem[];
  /** The open modal stack, root first. */
  views: ViewState[];
  home?: { view: Record<string, unknown>; issues: string[] };
}

/** A note the page shows only to one person: a slash command's ack, which Slack shows as ephemeral. */
export interface Note {
  userId: string;
  text: string;
}

/** Places ephemeral notes among the DM's messages at the point they arrived. */
export class Timeline {
  private readonly placed = new Map<EphemeralMessage | Note, number>();
  private readonly notes: Note[] = [];

  constructor(private readonly standin: SlackStandin) {}

  addNote(note: Note): void {
    this.notes.push(note);
    this.placed.set(note, this.messageCount(note.userId));
  }

  private messageCount(userId: string): number {
    return this.standin.messagesIn(this.standin.dmChannelOf(userId)).length;
  }

  private positionOf(e: EphemeralMessage | Note, userId: string): number {
    let at = this.placed.get(e);
    if (at === undefined) this.placed.set(e, (at = this.messageCount(userId)));
    return at;
  }

  of(userId: string): TimelineItem[] {
    const channel = this.standin.dmChannelOf(userId);
    const messages = this.standin.messagesIn(channel).map((m): TimelineItem => ({
      kind: 'message',
      ts: m.ts,
      channel,
      text: m.text,
      blocks: m.blocks,
      updates: m.updates,
      issues: validateMessageBlocks(m.blocks).map(formatIssue),
    }));
    const ephemeral = (e: EphemeralMessage | Note): { at: number; item: TimelineItem } => ({
      at: this.positionOf(e, userId),
      item: {
        kind: 'ephemeral',
        channel,
        text: e.text,
        ...('blocks' in e && { blocks: e.blocks }),
        updates: 0,
        issues: 'blocks' in e ? validateMessageBlocks(e.blocks).map(formatIssue) : [],
      },
    });
    const extras = [...this.standin.ephemeralsFor(userId), ...this.notes.filter((n) => n.userId === userId)]
      .map(ephemeral)
      .sort((a, b) => a.at - b.at);
    const out: TimelineItem[] = [];
    messages.forEach((m, i) => {
      out.push(...extras.filter((e) => e.at === i).map((e) => e.item), m);
    });
    out.push(...extras.filter((e) => e.at >= messages.length).map((e) => e.item));
    return out;
  }
}

export function personState(
  standin: SlackStandin,
  timeline: Timeline,
  userId: string,
  version: number,
): PersonState {
  const views = standin.openViews(userId).map((v): ViewState => ({
    id: v.id,
    hash: String(v.view.hash),
    view: v.view,
    errors: v.errors ?? {},
    issues: validateView(v.view).map(formatIssue),
  }));
  const home = standin.homeOf(userId);
  return {
    version,
    userId,
    channel: standin.dmChannelOf(userId),
    timeline: timeline.of(userId),
    views,
    ...(home && { home: { view: home, issues: validateView(home).map(formatIssue) } }),
  };
}
