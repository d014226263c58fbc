// The Automations panel: the commands a script would run to ask the current person (curl and
// `elicit-relay ask`, with this sandbox's address and token), a button that sends the same request to the
// API itself, and the webhooks the sandbox's own receiver got, each with its signature checked.
import { $, h } from './dom.js';

let shown = '';
let sent = '';

function copyable(label, text) {
  const status = h('span', { class: 'copy-note', role: 'status' });
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => (status.textContent = 'Copied'),
      () => (status.textContent = 'Select the text to copy it'),
    );
  return h(
    'div',
    { class: 'command' },
    h(
      'div',
      { class: 'command-head' },
      h('strong', {}, label),
      h('button', { type: 'button', class: 'btn', onclick: copy, 'aria-label': `Copy ${label}` }, 'Copy'),
      status,
    ),
    h('pre', { class: 'json', 'aria-label': label }, text),
  );
}

/** Sends the panel's request to the API (through this page's address), as the curl command does. */
async function send(request, person) {
  const res = await fetch(request.path, {
    method: 'POST',
    headers: { authorization: `Bearer ${request.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(request.body),
  });
  const body = await res.json().catch(() => ({}));
  sent = res.ok
    ? `Asked ${person}: question ${body.id} is ${body.status}. Its card is in their DM; the webhook comes when it ends.`
    : `The API answered ${res.status}: ${body.error?.message ?? 'no reason given'}`;
  $('automations-sent').textContent = sent;
}

function webhookRows(webhooks) {
  if (webhooks.length === 0) {
    return h(
      'div',
      { class: 'empty' },
      'No webhook yet: it arrives when a question with a callbackUrl ends.',
    );
  }
  const cells = (w) => [
    w.type,
    w.id,
    w.status,
    w.verified ? 'yes' : 'NO',
    w.deliveryId,
    new Date(w.receivedAt).toLocaleTimeString(),
  ];
  const head = ['Type', 'Question', 'Status', 'Signature verified', 'Delivery', 'Received'];
  return h(
    'table',
    { class: 'webhooks', 'aria-label': 'Webhooks received' },
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', {}, c)))),
    h(
      'tbody',
      {},
      ...webhooks.map((w) =>
        h('tr', {}, ...cells(w).map((c, i) => h('td', i === 3 && !w.verified ? { class: 'bad' } : {}, c))),
      ),
    ),
  );
}

/** Draws the panel from the state's `automations` (only when something in it changed). */
export function renderAutomations(state, person) {
  const a = state.automations;
  const key = JSON.stringify([a, person]);
  if (!a || key === shown) return;
  shown = key;
  $('automations').replaceChildren(
    h('h2', {}, 'Automations'),
    h(
      'p',
      { class: 'tool-description' },
      `A pipeline or an agent asks ${person} through the API, with nobody typing in Slack. Run either command `,
      'in a terminal, or send the same request from here; then answer the card in the DM.',
    ),
    copyable('curl', a.curl),
    copyable('elicit-relay ask', a.ask),
    h(
      'p',
      { class: 'copy-note' },
      'In this checkout, ',
      h('code', {}, 'npx elicit-relay'),
      ' needs ',
      h('code', {}, 'npm run build'),
      ' first. It waits for the answer, prints it and exits 0 when accepted, 1 declined, 3 cancelled or timed out.',
    ),
    h(
      'div',
      { class: 'command-head' },
      h(
        'button',
        {
          type: 'button',
          class: 'btn primary',
          onclick: () =>
            void send(a.request, person).catch((e) => ($('automations-sent').textContent = e.message)),
        },
        `Ask ${person} for an approval`,
      ),
      h('span', { id: 'automations-sent', class: 'copy-note', role: 'status' }, sent),
    ),
    h('h3', {}, 'Webhooks this sandbox received'),
    webhookRows(a.webhooks),
  );
}

/** The panel is drawn again from the next state (another person, or the page came back). */
export function forgetAutomations() {
  shown = '';
  sent = '';
}
