// Slack's `<!date^unix^format(^link)|fallback>`: shown in the reader's own time zone and language, as
// Slack's clients do. Tokens: {date_num} {date} {date_short} {date_long}, their *_pretty forms (today,
// yesterday, tomorrow), {time} {time_secs} and {ago}. An unknown token or timestamp shows the fallback.

let viewer = { tz: 'UTC', locale: 'en-US' };

/** The person looking at the page: their Slack time zone and locale. */
export function setViewer(person) {
  viewer = { tz: person?.tz ?? 'UTC', locale: person?.locale ?? 'en-US' };
}

const fmt = (date, options) =>
  new Intl.DateTimeFormat(viewer.locale, { timeZone: viewer.tz, ...options }).format(date);

const dayKey = (date) => fmt(date, { year: 'numeric', month: '2-digit', day: '2-digit' });

function ordinal(day) {
  if (!viewer.locale.startsWith('en')) return String(day);
  const tens = day % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[day % 10] ?? 'th');
  return `${day}${suffix}`;
}

function longDate(date, withWeekday) {
  if (!viewer.locale.startsWith('en')) {
    return fmt(date, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      ...(withWeekday && { weekday: 'long' }),
    });
  }
  const day = Number(fmt(date, { day: 'numeric' }));
  const text = `${fmt(date, { month: 'long' })} ${ordinal(day)}, ${fmt(date, { year: 'numeric' })}`;
  return withWeekday ? `${fmt(date, { weekday: 'long' })}, ${text}` : text;
}

function relativeDay(date) {
  const words = new Intl.RelativeTimeFormat(viewer.locale, { numeric: 'auto' });
  for (const offset of [-1, 0, 1]) {
    if (dayKey(date) !== dayKey(new Date(Date.now() + offset * 86_400_000))) continue;
    const word = words.format(offset, 'day');
    // Slack writes "Today at 3:00 PM".
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
  return undefined;
}

function ago(date) {
  const words = new Intl.RelativeTimeFormat(viewer.locale, { numeric: 'auto' });
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const units = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  return words.format(Math.round(seconds / size), unit);
}

const TOKENS = {
  date_num: (d) => fmt(d, { year: 'numeric', month: '2-digit', day: '2-digit' }).replace(/\//g, '-'),
  date: (d) => longDate(d, false),
  date_short: (d) => fmt(d, { year: 'numeric', month: 'short', day: 'numeric' }),
  date_long: (d) => longDate(d, true),
  time: (d) => fmt(d, { hour: 'numeric', minute: '2-digit' }),
  time_secs: (d) => fmt(d, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
  ago,
};
for (const base of ['date', 'date_short', 'date_long']) {
  TOKENS[`${base}_pretty`] = (d) => relativeDay(d) ?? TOKENS[base](d);
}

/** The text Slack shows for a date control: `spec` is what follows `!date^`, `fallback` what follows `|`. */
export function slackDate(spec, fallback) {
  const [seconds, format = ''] = spec.split('^');
  const date = new Date(Number(seconds) * 1000);
  if (!/^\d+$/.test(seconds ?? '') || Number.isNaN(date.getTime())) return fallback ?? '';
  let unknown = false;
  const text = format.replace(/\{([a-z_]+)\}/g, (all, token) => {
    const render = TOKENS[token];
    if (!render) unknown = true;
    return render ? render(date) : all;
  });
  return unknown ? (fallback ?? text) : text;
}
