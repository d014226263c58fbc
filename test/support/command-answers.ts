// What a person sees after a slash command: the bot acks it at once with an empty body, then answers
// privately through the command's response_url. The helpers system tests share to read those answers.
import type { Delivery, Outgoing, RecordedCall, SlackStandin } from '../../src/standin/index.js';

/** The command's response_url as the stand-in records it (the path under its origin). */
function responsePathOf(request: Outgoing): string {
  const url = 'form' in request ? request.form.response_url : undefined;
  if (!url) throw new Error('not a slash command request');
  return new URL(url).pathname;
}

/** The first answer posted to `request`'s response_url, already recorded or still to come. */
export function answerTo(standin: SlackStandin, request: Outgoing): Promise<RecordedCall> {
  const path = responsePathOf(request);
  return standin.waitForCall('response_url', (c) => c.args.response_url === path);
}

/** Every answer posted to `request`'s response_url so far. */
export const answersTo = (standin: SlackStandin, request: Outgoing): RecordedCall[] =>
  standin.calls.filter((c) => c.method === 'response_url' && c.args.response_url === responsePathOf(request));

/** Sends the command; resolves with its ack and the text of its first private answer. */
export async function commandAnswer(
  send: (request: Outgoing) => Promise<Delivery>,
  standin: SlackStandin,
  request: Outgoing,
): Promise<{ ack: Delivery; text: string; answer: RecordedCall }> {
  const ack = await send(request);
  const answer = await answerTo(standin, request);
  return { ack, text: String(answer.args.text), answer };
}
