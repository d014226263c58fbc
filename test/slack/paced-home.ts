// The App Home tab as the pacing tests build it: against the stand-in (its views.publish limit enforced when the
// stand-in was started with rateLimits: true), its publish slots taken from a real outbox, no pending questions,
// English, errors kept in `errors`; `recentAnswers` is the person's answer history (default none); the Home hashes
// in memory (one replica).
import { HomeTab } from '../../src/slack/home.js';
import type { Outbox } from '../../src/slack/outbox/index.js';
import type { AnswerRecord, HomeHashes } from '../../src/slack/state/index.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import type { SlackStandin } from '../../src/standin/index.js';
import { standinClient } from './standin-client.js';

export function pacedHome(input: {
  standin: SlackStandin;
  botToken: string;
  outbox: Outbox;
  errors: object[];
  recentAnswers?: (owner: { userId: string }) => Promise<AnswerRecord[]>;
}): HomeTab {
  const { standin, botToken, outbox, errors } = input;
  return new HomeTab({
    clients: singleWorkspace(standinClient(standin, botToken)),
    pendingFor: () => Promise.resolve([]),
    history: {
      recordAnswer: () => Promise.resolve(),
      recentAnswers: input.recentAnswers ?? (() => Promise.resolve([])),
    },
    hashes: memoryHomeHashes(),
    locales: { of: () => Promise.resolve('en') },
    logger: { error: (obj) => errors.push(obj), info: () => undefined },
    slot: (teamId) => outbox.slotFor('views.publish', teamId),
  });
}

/** Each Home's hash as SlackState keeps it (the record's conditions included), in this process's memory. */
export function memoryHomeHashes(): HomeHashes {
  const kept = new Map<string, string>();
  const keyOf = (owner: { teamId: string; userId: string }) => `${owner.teamId} ${owner.userId}`;
  return {
    homeHash: (owner) => Promise.resolve(kept.get(keyOf(owner))),
    recordHomeHash: (owner, hash, condition) => {
      const current = kept.get(keyOf(owner));
      const holds =
        condition === 'any' || (condition === 'none' ? current === undefined : current === condition.was);
      if (holds) kept.set(keyOf(owner), hash);
      return Promise.resolve(holds);
    },
  };
}
