// One views.publish of a person's Home, guarded by Slack's view hash so that a view rendered from an older read
// never replaces a newer one, whichever replica publishes it.
//
// Slack's views.publish takes `hash`, the view's hash from its last publish, and refuses the publish with
// `hash_conflict` when the Home was published since (docs.slack.dev/reference/methods/views.publish). Each
// replica reads the hash recorded at the last publish (HomeHashes, in Redis) before it reads what it renders, and
// publishes guarded by it; a publish Slack accepts records the hash Slack answered, in place of the one it was
// guarded by only. So a publish that lands was rendered after every publish before it had landed: it is the
// newest view. One that is refused renders again from a fresh read. When the record is behind Slack's view (a
// publish not recorded: another replica between its publish and its record, a replica of a version without
// hashes, a request the Web API client sent again), guarded publishes would all be refused: the next publish is
// unguarded and records its hash whatever was recorded, then one guarded publish more confirms it.
import type { HomeView } from '@slack/types';
import type { HashCondition, HomeHashes, HomeOwner } from './state/index.js';
import type { SlackClients } from './workspaces.js';
import { slackErrorCode } from './outbox/slack-calls.js';

/**
 * `current`: published and recorded, newer than every publish before it. `outdated`: another publish came in
 * between (refused, or its record came first, or this one only caught the record up): render and publish again.
 * `behind`: refused while the record still names the hash it was guarded by: the next publish catches up.
 */
export type GuardedOutcome = 'current' | 'outdated' | 'behind';

export interface GuardedPublishDeps {
  clients: SlackClients;
  hashes: HomeHashes;
}

/**
 * Publishes the view `render` makes (after the recorded hash is read) to `owner`'s Home, guarded by that hash,
 * or unguarded when `catchUp` (the last outcome was `behind`) or none is recorded.
 */
export async function publishGuarded(
  deps: GuardedPublishDeps,
  owner: HomeOwner,
  render: () => Promise<HomeView>,
  catchUp: boolean,
): Promise<GuardedOutcome> {
  const recorded = await deps.hashes.homeHash(owner);
  const view = await render();
  const guard = catchUp ? undefined : recorded;
  const slack = await deps.clients.for(owner.teamId);
  let hash: string | undefined;
  try {
    const reply = await slack.views.publish({
      user_id: owner.userId,
      view,
      ...(guard ? { hash: guard } : {}),
    });
    hash = reply.view?.hash;
  } catch (err) {
    if (guard === undefined || slackErrorCode(err) !== 'hash_conflict') throw err;
    return (await deps.hashes.homeHash(owner)) === guard ? 'behind' : 'outdated';
  }
  // Slack answers every publish with the view and its hash; without one, the next guarded publish finds out.
  if (hash === undefined) return 'current';
  const condition: HashCondition = catchUp ? 'any' : guard === undefined ? 'none' : { was: guard };
  const kept = await deps.hashes.recordHomeHash(owner, hash, condition);
  return kept && !catchUp ? 'current' : 'outdated';
}
