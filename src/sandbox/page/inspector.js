// The Block Kit JSON inspector: the raw JSON of a message or view, with the limit checker's verdict.
import { $, h } from './dom.js';

function inspect(title, json, issues) {
  $('inspector-title').textContent = title;
  $('inspector-json').textContent = JSON.stringify(json, null, 2);
  const verdict = $('inspector-verdict');
  verdict.replaceChildren();
  verdict.className = `verdict ${issues.length ? 'bad' : 'ok'}`;
  if (issues.length === 0) verdict.append('✓ Slack accepts it: the limit checker found no issues.');
  else
    verdict.append(
      `✗ ${issues.length} issue(s):`,
      h(
        'ul',
        {},
        issues.map((i) => h('li', {}, i)),
      ),
    );
  $('inspector').showModal();
}

export const inspectButton = (title, json, issues) =>
  h(
    'button',
    {
      type: 'button',
      class: `inspect${issues.length ? ' bad' : ''}`,
      title: 'View JSON',
      onclick: () => inspect(title, json, issues),
    },
    issues.length ? `{ } JSON ✗${issues.length}` : '{ } JSON',
  );

export function setUpInspector() {
  $('inspector-close').addEventListener('click', () => $('inspector').close());
}
