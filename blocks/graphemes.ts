// Where text may be cut without splitting a character as people see it: an emoji ZWJ sequence (👩‍💻), a flag
// (two regional indicators), a keycap (1️⃣), a skin tone, a letter and its combining marks, an Indic conjunct.
// Cut inside one, the rest shows another character (👩 for 👩‍💻, a lone "🇺" for 🇺🇸) or a dangling mark.
// Rules from Unicode's grapheme cluster boundaries (UAX #29: GB9, GB9a-c, GB11, GB12/13) for the code points
// that occur in labels and messages; Intl.Segmenter gives the same cuts but costs ~5 µs per character on long
// text, and a cut is all that is asked here.

/** Code points drawn as part of the character before them: marks (variation selectors too), ZWJ, skin tones, tags. */
const JOINS_PREVIOUS = /^[\p{M}\u200D\p{Emoji_Modifier}\u{E0020}-\u{E007F}]$/u;
/** Indic conjunct linkers (viramas): the letter after one is drawn with the letter before it. */
const LINKER = /^[\u094D\u09CD\u0ACD\u0B4D\u0C4D\u0D4D]$/u;
const LETTER = /^\p{L}$/u;
const REGIONAL = /^\p{Regional_Indicator}$/u;

/**
 * The largest cut at or before `end` into `units` (code points, or escaped tokens such as `&amp;`, which never
 * join) that splits no character as drawn, at least `start`; `start` when every cut after it would split one.
 */
export function graphemeCut(units: readonly string[], end: number, start = 0): number {
  let cut = Math.min(end, units.length);
  while (cut > start && splits(units, cut)) cut -= 1;
  return cut;
}

/** Whether cutting `units` before index `cut` splits a character as drawn. */
function splits(units: readonly string[], cut: number): boolean {
  const before = units[cut - 1] ?? '';
  const after = units[cut];
  if (after === undefined) return false;
  if (JOINS_PREVIOUS.test(after) || before === '\u200D') return true;
  if (LINKER.test(before) && LETTER.test(after)) return true;
  if (!REGIONAL.test(before) || !REGIONAL.test(after)) return false;
  // Regional indicators pair up from the start of their run: a cut after an odd count splits a flag.
  let run = 0;
  for (let i = cut - 1; i >= 0 && REGIONAL.test(units[i] ?? ''); i -= 1) run += 1;
  return run % 2 === 1;
}
