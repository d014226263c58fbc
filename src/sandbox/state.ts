// What the page shows one person, built from what the bot really sent to the stand-in: one conversation
// (messages with every update, that person's ephemeral notes interleaved where they arrived), their open
// modals with field errors, and App Home, each with the limit checker's verdict for the view-JSON inspector.
import {
  type EphemeralMessage,
  type SlackStandin,
  type StandinUser,
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
  /** Files shared with the message (a snippet of long tool output), with what was uploaded. */
  files?: { title: string; content: string }[];
  /** How many times the message was updated (chat.update or replace_original). */
  updates: number;
  /** A reply in the thread of this message ts. */
  threadTs?: string;
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

/** A conversation the page can show: each person's DM with the bot, and channels the bot posted in. */
export interface Conversation {
  id: string;
  name: string;
}

export interface PersonState {
  version: number;
  userId: string;
  /** The person's own DM with the bot (where their slash commands run). */
  dm: string;
  /** The conversation shown: their DM unless they asked for another one. */
  channel: string;
  conversations: Conversation[];
  timeline: TimelineItem[];
  /** The open modal stack, root first. */
  views: ViewState[];
  home?: { view: Record<string, unknown>; issues: string[] };
}

/** A note the page shows only to one person: a slash command's ack, which Slack shows as ephemeral. */
export interface Note {
  userId: string;
  channel: string;
  text: string;
}

/** Places ephemeral notes among the DM's messages at the point they arrived. */
export class Timeline {
  private readonly placed = new Map<EphemeralMessage | Note, number>();
  private readonly notes: Note[] = [];

  constructor(private readonly standin: SlackStandin) {}

  addNote(note: Note): void {
    this.notes.push(note);
    this.placed.set(note, this.messageCount(note.channel));
  }

  private messageCount(channel: string): number {
    return this.standin.messagesIn(channel).length;
  }

  private positionOf(e: EphemeralMessage | Note): number {
    let at = this.placed.get(e);
    if (at === undefined) this.placed.set(e, (at = this.messageCount(e.channel)));
    return at;
  }

  private fileOf(id: string): { title: string; content: string } {
    const file = this.standin.file(id);
    return { title: file?.title ?? file?.filename ?? id, content: file?.content ?? '' };
  }

  /** The conversation `channel` as `userId` sees it: everyone's messages, and only their own ephemerals. */
  of(userId: string, channel: string): TimelineItem[] {
    const messages = this.standin.messagesIn(channel).map((m): TimelineItem => ({
      kind: 'message',
      ts: m.ts,
      channel,
      text: m.text,
      blocks: m.blocks,
      ...(m.threadTs && { threadTs: m.threadTs }),
      ...(m.files && { files: m.files.map((f) => this.fileOf(String(f.id))) }),
      updates: m.updates,
      issues: validateMessageBlocks(m.blocks).map(formatIssue),
    }));
    const ephemeral = (e: EphemeralMessage | Note): { at: number; item: TimelineItem } => ({
      at: this.positionOf(e),
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
      .filter((e) => e.channel === channel)
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

/** Every person's DM with the bot, then the channels the bot has posted in. */
export function conversations(
  standin: SlackStandin,
  people: Readonly<Record<string, StandinUser>>,
): Conversation[] {
  const dms = Object.entries(people).map(([id, p]) => ({
    id: standin.dmChannelOf(id),
    name: p.realName ?? p.name,
  }));
  const known = new Set(dms.map((d) => d.id));
  const channels = standin
    .channelsWithMessages()
    .filter((id) => !known.has(id))
    .map((id) => ({ id, name: `#${id.toLowerCase()}` }));
  return [...dms, ...channels];
}

export function personState(
  standin: SlackStandin,
  timeline: Timeline,
  at: { userId: string; channel?: string; version: number; conversations: Conversation[] },
): PersonState {
  const { userId, version } = at;
  const dm = standin.dmChannelOf(userId);
  const channel = at.channel ?? dm;
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
    dm,
    channel,
    conversations: at.conversations,
    timeline: timeline.of(userId, channel),
    views,
    ...(home && { home: { view: home, issues: validateView(home).map(formatIssue) } }),
  };
}
