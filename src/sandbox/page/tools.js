// A server's tools (name and description, from the bot's MCP session), each runnable with a JSON
// arguments box: Run types `/mcp run <server> <tool> <arguments>` for you, as the message box would.
// A tool with arguments also offers its form: `/mcp run <server> <tool>` opens the modal Slack would show.
import { $, h } from './dom.js';
import { note, post, session } from './api.js';

const EMPTY = { string: '', number: 0, integer: 0, boolean: false, array: [], object: {} };

/** Arguments to start from: each property's default, and an empty value for required ones without. */
function skeleton(schema) {
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const out = {};
  for (const [name, prop] of Object.entries(props)) {
    if (prop?.default !== undefined) out[name] = prop.default;
    else if (required.has(name)) out[name] = EMPTY[prop?.type] ?? null;
  }
  return out;
}

function toolNode(server, tool, onRan) {
  const start = skeleton(tool.inputSchema);
  const args = h('textarea', {
    class: 'tool-args',
    rows: Object.keys(start).length > 1 ? 4 : 2,
    spellcheck: false,
    'aria-label': `Arguments for ${tool.name}`,
    value: JSON.stringify(start, null, Object.keys(start).length > 1 ? 2 : undefined),
  });
  const problem = h('div', { class: 'field-error', role: 'alert' });
  const run = async () => {
    // One line: the slash command is a single line of text.
    let text = args.value.trim() || '{}';
    try {
      text = JSON.stringify(JSON.parse(text));
    } catch (error) {
      problem.textContent = `Not JSON: ${error.message}`;
      return;
    }
    problem.textContent = '';
    onRan();
    await post('/api/command', { text: `/mcp run ${server} ${tool.name} ${text}` }).catch((e) =>
      note(e.message),
    );
  };
  const form = async () => {
    onRan();
    await post('/api/command', { text: `/mcp run ${server} ${tool.name}` }).catch((e) => note(e.message));
  };
  const takesArguments = Object.keys(tool.inputSchema?.properties ?? {}).length > 0;
  return h(
    'div',
    { class: 'tool', role: 'article', 'aria-label': tool.name },
    h('div', { class: 'tool-name' }, tool.title ? `${tool.title} ` : '', h('code', {}, tool.name)),
    tool.description ? h('div', { class: 'tool-description' }, tool.description) : null,
    h(
      'details',
      { class: 'tool-schema' },
      h('summary', {}, 'Arguments schema'),
      h('pre', { class: 'json' }, JSON.stringify(tool.inputSchema ?? {}, null, 2)),
    ),
    args,
    problem,
    h('button', { type: 'button', class: 'btn primary', onclick: () => void run() }, `Run ${tool.name}`),
    takesArguments
      ? h(
          'button',
          { type: 'button', class: 'btn', onclick: () => void form() },
          `Fill in ${tool.name}'s form`,
        )
      : null,
  );
}

/** Fills the tools panel with `server`'s tools; `onRan` is called as a run is sent. */
export async function showTools(server, onRan) {
  const panel = $('tools');
  panel.replaceChildren(h('h2', {}, `Tools of ${server}`), h('div', { class: 'empty' }, 'Listing tools…'));
  const query = new URLSearchParams({ server, user: session.me });
  const res = await fetch(`/api/tools?${query}`);
  const body = await res.json();
  const list = res.ok
    ? body.tools.length
      ? body.tools.map((tool) => toolNode(server, tool, onRan))
      : [h('div', { class: 'empty' }, `${server} offers no tools.`)]
    : [h('div', { class: 'banner' }, `Could not list the tools of ${server}: ${body.message}`)];
  panel.replaceChildren(h('h2', {}, `Tools of ${server}`), ...list);
}
