// The App Home's Disconnect button (issue #20): forgets the person's sign-in to the server named in its value,
// then refreshes their Home so the connection is gone from the list.
import type { ListenerDeps } from '../deps.js';
import type { ButtonArgs } from './question-buttons.js';

export async function disconnect(
  { ack, body, action }: ButtonArgs,
  deps: Pick<ListenerDeps, 'signIn' | 'home'>,
): Promise<void> {
  await ack();
  const server = action.value;
  const teamId = body.team?.id;
  if (deps.signIn === undefined || server === undefined || teamId === undefined) return;
  await deps.signIn.connections.disconnect(server, { teamId, userId: body.user.id });
  await deps.home.refresh(body.user.id, teamId);
}
