// The buttons of a person's run (Retry, Start again, Cancel) sit under a message that may be in a channel's thread,
// where anyone may click them: only the person whose run it is acts, anyone else is told whose run it is.
import { commandText, type CommandText } from '../../../../blocks/index.js';
import { retriedRespond } from '../../retried.js';
import type { CommandDeps } from '../deps.js';
import type { ButtonArgs } from './question-buttons.js';

type Click = Pick<ButtonArgs, 'body' | 'respond'>;

/** Tells the person who clicked `say`'s text privately, in their language; the message stays as it is. */
export async function notePrivately(
  { body, respond }: Click,
  deps: Pick<CommandDeps, 'locales'>,
  say: (t: CommandText) => string,
): Promise<void> {
  const locale = await deps.locales.of(body.user.id, body.team?.id);
  const text = say(commandText(locale));
  await retriedRespond(respond, { response_type: 'ephemeral', replace_original: false, text });
}

/**
 * Whether the person who clicked may act on the run of `owner` (a Slack user id; undefined on a button made before
 * owners were kept, which anyone may click). Anyone else is told privately (`notYours`, given `owner` as a mention).
 */
export async function isOwnersClick(
  click: Click,
  deps: Pick<CommandDeps, 'locales'>,
  owner: string | undefined,
  notYours: (t: CommandText) => (owner: string) => string,
): Promise<boolean> {
  if (owner === undefined || owner === click.body.user.id) return true;
  await notePrivately(click, deps, (t) => notYours(t)(`<@${owner}>`));
  return false;
}
