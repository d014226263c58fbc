/** Polls `check` every 50 ms until it is true, failing after `deadlineMs` with `what`. */
export async function until(what: string, deadlineMs: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
