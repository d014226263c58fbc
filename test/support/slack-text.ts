// Reading what the bot posted, as a person would: the helpers system and sandbox tests share.

/** A tool-result message's text: the sections after its headline, with Slack's mrkdwn escaping undone. */
export function resultText(blocks: unknown): string {
  return ((blocks ?? []) as { text?: { text?: string } }[])
    .slice(1)
    .map((b) => b.text?.text ?? '')
    .join('')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The question id a card's buttons carry as their value. */
export function questionIdOnCard(blocks: unknown): string {
  return /"value":"([^"]+)"/.exec(JSON.stringify(blocks))?.[1] ?? '';
}
