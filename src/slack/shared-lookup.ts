// One Slack lookup per key at a time: callers asking for the same key while its call is out share that call.
// A flood's questions reach the bot together (a tool eliciting 10 times at once), and each card asked for
// the person's DM (conversations.open, Tier 3: 50+ per minute per workspace) and locale (users.info, Tier 4)
// before the first answer was cached: 10 calls per person where one gives the same answer.

export class SharedLookup<T> {
  private readonly pending = new Map<string, Promise<T>>();

  /** `lookup()`'s result for `key`, or the result of the call for `key` already out. */
  get(key: string, lookup: () => Promise<T>): Promise<T> {
    const out = this.pending.get(key);
    if (out) return out;
    const call = lookup().finally(() => this.pending.delete(key));
    this.pending.set(key, call);
    return call;
  }
}
