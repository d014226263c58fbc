// Whose language each of a question's cards (and what is posted under it: its reminders) is in. A card in one
// person's DM is in that person's language; a card in a conversation several people share (a channel, a
// thread, a multi-person DM) is in the language of the question's person (`userId`: the requester of an MCP
// question, the first person an API question names, since an API client has no Slack language).
import type { SlackPolicy } from '../config/index.js';
import { cardsOf, type Place, type Question } from '../relay/types.js';
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
 * read as shared ones (the question's person's language). Only one question shape has a DM among several cards: more
 * than 8 people, the last alone (9 people: a multi-person DM of 8 and the ninth's DM).
 */
export function readerOfCard(
  policy: SlackPolicy,
  question: Question,
  index: number,
  cardCount = cardsOf(question).length,
): string {
  const places = placesOf(placeOfQuestion(policy, question));
  const place = cardCount === places.length ? places[index] : undefined;
  return place ? readerOfPlace(place, question) : question.userId;
}
