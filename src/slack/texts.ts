// What people see when an interaction cannot proceed, in their language. Plain data; no Slack calls.
import { uiText, type Locale } from '../../blocks/index.js';
import type { Refusal } from '../answering/decide.js';
import { peopleNamed, type Answerers, type Question } from '../relay/types.js';
import { isUserId } from './user-id.js';

/** Groups and people named in "this question is for …" before the list is cut. */
const NAMED_MAX = 10;

export function refusalText(refusal: Refusal, locale?: Locale): string {
  const t = uiText(locale).refusals;
  if ('otherWorkspace' in refusal) return t.otherWorkspace;
  if ('notFor' in refusal) return t.notFor(answerersText(refusal.notFor, locale));
  if ('channelUnchecked' in refusal) return uncheckedText(refusal.channelUnchecked, locale);
  // Named only as a person: an id that is not a Slack user's (none today) is left unsaid.
  const by = refusal.by !== undefined && isUserId(refusal.by) ? `<@${refusal.by}>` : undefined;
  switch (refusal.ended) {
    case 'accepted':
      return by ? t.answeredBy(by) : t.answered;
    case 'declined':
      return by ? t.declinedBy(by) : t.declined;
    case 'cancelled':
      return refusal.reason === 'holder_lost' ? t.holderLost : t.expired;
    case 'missing':
      return t.expired;
    case 'pending':
      return t.stillOpen;
  }
}

/**
 * Why an act on a question for anyone in `channel` was not recorded, though no retry would record it: the
 * channel's members can no longer be listed. Only the people the question names, who find it in their App Home
 * (src/relay/types.ts namedAnswerers), can still answer it; when it names nobody, nobody can.
 */
function uncheckedText({ channel, answerers }: { channel: string; answerers: Answerers }, locale?: Locale) {
  const t = uiText(locale).refusals;
  const named: Answerers = {
    users: answerers.users,
    ...(answerers.groups ? { groups: answerers.groups } : {}),
  };
  const who =
    peopleNamed(named).length > 0 ? answerersText({ userId: '', answerers: named }, locale) : undefined;
  return t.channelUnchecked(
    `<#${channel}>`,
    who === undefined ? t.nobodyCanAnswer : t.onlyNamedCanAnswer(who),
  );
}

/** "<@U1>, members of <!subteam^S1> or people in <#C1>": who may answer a question. */
export function answerersText(question: Pick<Question, 'userId' | 'answerers'>, locale?: Locale): string {
  const t = uiText(locale).refusals;
  const { users, groups = [], channel } = question.answerers ?? { users: [question.userId] };
  const people = users.map((u) => `<@${u}>`);
  const named = [...people, ...groups.map((g) => t.membersOf(`<!subteam^${g.id}>`))];
  const shown = named.length > NAMED_MAX ? [...named.slice(0, NAMED_MAX), t.others] : named;
  return t.list([...shown, ...(channel ? [t.peopleIn(`<#${channel}>`)] : [])]);
}

/**
 * A modal that replaces the form when the question ended before the submit arrived. Its text is the bot's own
 * (mrkdwn, so the person who answered shows by name), never a server's.
 */
export function finishedView(text: string, locale?: Locale) {
  const t = uiText(locale).refusals;
  return {
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: t.title },
    close: { type: 'plain_text' as const, text: t.close },
    blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }],
  };
}
