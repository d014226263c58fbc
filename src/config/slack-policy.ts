// The per-server `slack` policy: where a server's questions are asked, who may answer them, what the card
// shows once answered, the review step, what closing the form means, and when to remind.
//   slack: { route: dm | thread | channel, channel: C…, answerers: { requester, users, usergroups, channel },
//            showAnswers, review, onClose: cancel | keep, reminders: ["50%", "5m"] }
import { ConfigError } from './error.js';
import { KNOWN_KEYS, refuseUnknownKeys } from './known-keys.js';
import { parseDuration } from './duration.js';

/** When to nudge: at a share of the time given (`"50%"`), or a duration before the deadline (`"5m"`). */
import type { ReminderSpec } from '../relay/reminders.js';

export type { ReminderSpec };

export interface SlackPolicy {
  /** dm: the requester's DM (default); thread: where the command ran (its thread when known); channel: `channel`. */
  route: 'dm' | 'thread' | 'channel';
  /** The approvals channel (C… or G… id) of route "channel". */
  channel?: string;
  answerers: {
    /** The person who ran the tool may answer; default true. */
    requester: boolean;
    /** More people (U…/W… ids). */
    users: string[];
    /** User groups (S… ids) whose members may answer, resolved when the question is asked. */
    usergroups: string[];
    /** Anyone in the conversation the card is posted in may answer (route thread or channel); default false. */
    channel: boolean;
  };
  /** The card shows the answer once answered; false hides its content. Default true. */
  showAnswers: boolean;
  /** Review before sending: always, never, or auto (forms with a yes/no field named like confirm or approve). */
  review: 'always' | 'never' | 'auto';
  /** Closing the form answers cancel (default), or keeps the question open to answer later ("keep"). */
  onClose: 'cancel' | 'keep';
  /** When to remind; absent: one reminder at half time for questions of two minutes or more. */
  reminders?: ReminderSpec[];
}

export const DEFAULT_SLACK_POLICY: SlackPolicy = {
  route: 'dm',
  answerers: { requester: true, users: [], usergroups: [], channel: false },
  showAnswers: true,
  review: 'auto',
  onClose: 'cancel',
};

const KEYS = ['route', 'channel', 'answerers', 'showAnswers', 'review', 'onClose', 'reminders'];

/** Reads `mcpServers.<name>.slack`; undefined when absent (the defaults apply). */
export function readSlackPolicy(key: string, value: unknown): SlackPolicy | undefined {
  if (value === undefined) return undefined;
  const at = `${key}.slack`;
  const slack = mapping(at, value, 'Write `slack: { route: dm }`.');
  const unknown = Object.keys(slack).find((k) => !KEYS.includes(k));
  if (unknown)
    throw new ConfigError(`${at}.${unknown}`, 'is not a setting', `Use one of: ${KEYS.join(', ')}.`);
  const route = choice(`${at}.route`, slack.route, ['dm', 'thread', 'channel'] as const, 'dm');
  const channel = readChannel(at, route, slack.channel);
  const policy: SlackPolicy = {
    route,
    ...(channel ? { channel } : {}),
    answerers: readAnswerers(at, route, slack.answerers),
    showAnswers: flag(`${at}.showAnswers`, slack.showAnswers, true),
    review: readReview(at, slack.review),
    onClose: choice(`${at}.onClose`, slack.onClose, ['cancel', 'keep'] as const, 'cancel'),
  };
  if (slack.reminders !== undefined) policy.reminders = readReminders(`${at}.reminders`, slack.reminders);
  return policy;
}

function readChannel(at: string, route: SlackPolicy['route'], channel: unknown): string | undefined {
  if (route !== 'channel') {
    if (channel === undefined) return undefined;
    throw new ConfigError(`${at}.channel`, 'is only used with `route: channel`', 'Add `route: channel`.');
  }
  if (typeof channel === 'string' && /^[CG][A-Z0-9]{2,}$/.test(channel)) return channel;
  throw new ConfigError(
    `${at}.channel`,
    channel === undefined ? 'is missing (route: channel)' : `${JSON.stringify(channel)} is not a channel id`,
    'Give the approvals channel’s id, e.g. C0123ABCD (channel details → About), and invite the bot there.',
  );
}

function readAnswerers(at: string, route: SlackPolicy['route'], value: unknown): SlackPolicy['answerers'] {
  const key = `${at}.answerers`;
  const defaults = DEFAULT_SLACK_POLICY.answerers;
  if (value === undefined) return defaults;
  const a = mapping(key, value, 'Write `answerers: { requester: true, users: [U…] }`.');
  refuseUnknownKeys(key, a, KNOWN_KEYS.answerers);
  const answerers = {
    requester: flag(`${key}.requester`, a.requester, true),
    users: ids(`${key}.users`, a.users, /^[UW][A-Z0-9]{2,}$/, 'user ids such as U0123ABCD'),
    usergroups: ids(`${key}.usergroups`, a.usergroups, /^S[A-Z0-9]{2,}$/, 'user group ids such as S0123ABCD'),
    channel: flag(`${key}.channel`, a.channel, false),
  };
  if (answerers.channel && route === 'dm') {
    throw new ConfigError(
      `${key}.channel`,
      'needs a channel, but the questions go to a DM',
      'Set `route: thread` or `route: channel`.',
    );
  }
  const nobody = !answerers.requester && !answerers.channel;
  if (nobody && answerers.users.length === 0 && answerers.usergroups.length === 0) {
    throw new ConfigError(key, 'lets nobody answer', 'Keep `requester: true` or list users or usergroups.');
  }
  return answerers;
}

function readReview(at: string, value: unknown): SlackPolicy['review'] {
  if (value === undefined || value === 'auto') return 'auto';
  if (typeof value === 'boolean') return value ? 'always' : 'never';
  throw new ConfigError(
    `${at}.review`,
    `${JSON.stringify(value)} is not a choice`,
    'Use true (always review before sending), false (never) or "auto" (forms that confirm or approve).',
  );
}

function readReminders(key: string, value: unknown): ReminderSpec[] {
  if (!Array.isArray(value))
    throw new ConfigError(key, 'is not a list', 'Write e.g. `reminders: ["50%", "5m"]`.');
  return value.map((item, i): ReminderSpec => {
    const percent = typeof item === 'string' ? /^\s*(\d{1,2})\s*%\s*$/.exec(item) : null;
    if (percent?.[1] && Number(percent[1]) > 0) return { atFraction: Number(percent[1]) / 100 };
    const ms = percent ? undefined : parseDuration(item);
    if (ms !== undefined && ms > 0) return { beforeMs: ms };
    throw new ConfigError(
      `${key}[${i}]`,
      `${JSON.stringify(item)} is not a reminder time`,
      'Use a share of the time ("50%": at half time, 1–99%) or a duration before the deadline ("5m").',
    );
  });
}

function mapping(key: string, value: unknown, fix: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(key, 'is not a mapping', fix);
  return value as Record<string, unknown>;
}

function flag(key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  throw new ConfigError(key, `${JSON.stringify(value)} is not true or false`, 'Write true or false.');
}

function choice<T extends string>(key: string, value: unknown, options: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  const found = options.find((o) => o === value);
  if (found) return found;
  throw new ConfigError(
    key,
    `${JSON.stringify(value)} is not a choice`,
    `Use one of: ${options.join(', ')}.`,
  );
}

function ids(key: string, value: unknown, pattern: RegExp, what: string): string[] {
  if (value === undefined) return [];
  const list: unknown[] = Array.isArray(value) ? value : [undefined];
  if (list.every((v): v is string => typeof v === 'string' && pattern.test(v))) return list;
  throw new ConfigError(key, `${JSON.stringify(value)} is not a list of ${what}`, `List ${what}.`);
}
