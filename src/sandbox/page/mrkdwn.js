// Slack mrkdwn to DOM, with Slack's escaping: the bot escapes & < > as &amp; &lt; &gt;, which show as the
// characters themselves; a raw <...> is a control sequence (link, mention, special mention).
import { slackDate } from './dates.js';
import { h } from './dom.js';

let nameOf = (id) => id;

// The shortcodes the bot uses (Slack shows them as emoji); unknown ones stay as typed.
const EMOJI = {
  warning: '⚠️',
  white_check_mark: '✅',
  white_circle: '⚪',
  red_circle: '🔴',
  large_green_circle: '🟢',
  no_entry_sign: '🚫',
  black_square_for_stop: '⏹️',
  hourglass: '⌛',
  lock: '🔒',
  link: '🔗',
};
/** Text with :shortcode: emoji replaced, as Slack shows mrkdwn and plain_text with emoji: true. */
export const emoji = (s) => s.replace(/:([a-z0-9_+-]+):/g, (all, name) => EMOJI[name] ?? all);
/** How <@U…> mentions are shown: the person's name when known. */
export function setNameResolver(resolve) {
  nameOf = resolve;
}

const decodeOnly = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
export const decode = (s) => emoji(decodeOnly(s));
const INLINE = /`([^`\n]+)`|<([^<>\n]+)>|\*([^*\n]+)\*|(?<![\w])_([^_\n]+)_(?![\w])|~([^~\n]+)~/g;

function control(body) {
  const [target, label] = body.split('|');
  if (target.startsWith('@'))
    return h('span', { class: 'mention' }, `@${label ? decode(label) : nameOf(target.slice(1))}`);
  if (target.startsWith('#'))
    return h('span', { class: 'mention' }, `#${label ? decode(label) : target.slice(1)}`);
  if (target.startsWith('!date^')) {
    return h(
      'span',
      { class: 'mention date' },
      slackDate(target.slice('!date^'.length), label && decode(label)),
    );
  }
  if (target.startsWith('!')) {
    const special = target.slice(1).split('^')[0];
    return h('span', { class: 'mention' }, label ? decode(label) : `@${special}`);
  }
  const href = decodeOnly(target);
  const text = label === undefined ? href : decode(label);
  return /^(https?:|mailto:)/i.test(href)
    ? h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text)
    : text;
}

function inline(src, parent) {
  let at = 0;
  for (const m of src.matchAll(INLINE)) {
    if (m.index > at) parent.append(decode(src.slice(at, m.index)));
    if (m[1] !== undefined) parent.append(h('code', {}, decodeOnly(m[1])));
    else if (m[2] !== undefined) parent.append(control(m[2]));
    else {
      const el = h(m[3] !== undefined ? 'b' : m[4] !== undefined ? 'i' : 's');
      inline(m[3] ?? m[4] ?? m[5], el);
      parent.append(el);
    }
    at = m.index + m[0].length;
  }
  if (at < src.length) parent.append(decode(src.slice(at)));
}

export function mrkdwn(src) {
  const el = h('div', { class: 'mrkdwn' });
  for (const part of String(src).split(/(```[\s\S]*?```)/)) {
    if (part.length >= 6 && part.startsWith('```') && part.endsWith('```'))
      el.append(h('pre', {}, decodeOnly(part.slice(3, -3))));
    else inline(part, el);
  }
  return el;
}

const plainOf = (t) => (t.emoji === false ? t.text : emoji(t.text));
export const textObj = (t) =>
  !t ? null : t.type === 'mrkdwn' ? mrkdwn(t.text) : h('span', { class: 'plain' }, plainOf(t));
export const plainText = (t) => (t && typeof t.text === 'string' ? plainOf(t) : '');
