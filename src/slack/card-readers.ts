// Whose language each of a question's cards (and what is posted under it: its reminders) is in. A card in one
// person's DM is in that person's language; a card in a conversation several people share (a channel, a
// thread, a multi-person DM) is in the language of the question's person (`userId`: the requester of an MCP
// question, the first person an API question names, since an API client has no Slack language). Also whether a
// card's reader may answer from it (a card that only watches has no buttons and gets no reminders), and which of
// a question's card posts decide its delivery.
import type { SlackPolicy } from '../config/index.js';
import { cardsOf, peopleNamed, type CardRef, type Place, type Question } from '../relay/types.js';
import { placeOfQuestion } from './audience.js';

/** A place that takes one card. */
export type OnePlace = Exclude<Place, { mpims: string[][] }>;

/** Each place of `place` that takes one card: a group of one is that person's DM. */
export function placesOf(place: Place): OnePlace[] {
  if (!('mpims' in place)) return [place];
  return place.mpims.map((people) =>
    people.length === 1 && people[0] ? { dm: people[0] } : { mpim: people },
  );
}

/** The person whose language a card in `place` speaks: the DM's person, else the question's. */
export function readerOfPlace(place: OnePlace, question: Pick<Question, 'userId'>): string {
  return 'dm' in place ? place.dm : question.userId;
}

/**
 * The person whose language the question's `index`-th card (cardsOf order, of `cardCount`) speaks. The cards follow their
 * places' order when every post went out; when one failed, the record does not say which, so the cards are
 * read as shared ones (the question's person's language). Two question shapes have DMs among several cards: an API
 * question to more than 8 people, the last alone (9 people: a multi-person DM of 8 and the ninth's DM), and a
 * form question the policy puts in the requester's DM, one DM each (audience.ts placeOfQuestion).
 */
export function readerOfCard(
  policy: SlackPolicy,
  question: Question,
  index: number,
  cardCount = cardsOf(question).length,
): string {
  const place = placeOfCard(policy, question, index, cardCount);
  return place ? readerOfPlace(place, question) : question.userId;
}

/**
 * Whether a card in `place` only shows the question to someone who may not answer it: a form question's card in
 * the DM of a person its answerers do not name (the requester's, when `answerers.requester` is false). It has no
 * Respond or Decline and gets no reminders. A URL card keeps its link (the link is for its person).
 */
export function onlyWatches(place: OnePlace, question: Pick<Question, 'answerers' | 'url'>): boolean {
  const { answerers } = question;
  if (!('dm' in place) || answerers === undefined || question.url) return false;
  return answerers.channel === undefined && !peopleNamed(answerers).includes(place.dm);
}

/** onlyWatches of the question's `index`-th card; false when the record does not tell its place (see readerOfCard). */
export function cardWatches(policy: SlackPolicy, question: Question, index: number): boolean {
  const place = placeOfCard(policy, question, index, cardsOf(question).length);
  return place !== undefined && onlyWatches(place, question);
}

/** The place of the question's `index`-th card, when every post went out (else the record does not say). */
function placeOfCard(
  policy: SlackPolicy,
  question: Question,
  index: number,
  cardCount: number,
): OnePlace | undefined {
  const places = placesOf(placeOfQuestion(policy, question));
  return cardCount === places.length ? places[index] : undefined;
}

/**
 * The card posts that decide a question's delivery (`kept`). Where the policy's DM route also sends the card to
 * each other answerer (placeOfQuestion), one answerer Slack will not DM (deactivated, or not taking the bot's
 * messages) must not end the question for all: while a card someone may answer from is out, the other DMs'
 * failures are dropped (`missed`, for the log). People an API question names (its own place) keep the rule that
 * every card must go out.
 */
export function missedAnswerersForgiven(
  question: Pick<Question, 'place' | 'answerers' | 'url'>,
  places: OnePlace[],
  posts: PromiseSettledResult<CardRef>[],
): { kept: PromiseSettledResult<CardRef>[]; missed: { person: string; error: string }[] } {
  const none = { kept: posts, missed: [] };
  if (question.place || places.length < 2) return none;
  const answerable = posts.some((post, i) => {
    const place = places[i];
    return post.status === 'fulfilled' && place !== undefined && !onlyWatches(place, question);
  });
  if (!answerable) return none;
  const missed = posts.flatMap((post, i) => {
    const place = places[i];
    return post.status === 'rejected' && place && 'dm' in place
      ? [{ person: place.dm, error: String(post.reason) }]
      : [];
  });
  return { kept: posts.filter((post) => post.status === 'fulfilled'), missed };
}
