// The page's calls to its sandbox server, and the status line under the message box.
import { $ } from './dom.js';

/** Who the page acts as (the person switcher); every action is sent on their behalf. */
export const session = { me: '' };

export async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: session.me, ...body }),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(json.message || `HTTP ${res.status}`);
  return json;
}

export function note(text) {
  $('composer-note').textContent = text;
}
