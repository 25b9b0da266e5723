// Starts a parallel batch of tool calls a few at a time, letting I/O run between groups.
// Started all in one go, a 1,000-call fan-out ran every call's synchronous prelude (run
// created, policy checked, request built) before the event loop could send the first
// request: the first child left a second after the root's reply. In groups, the first
// children's requests are on the wire while the later ones are still being created. Every
// call is still started, in order, exactly once, and the returned promise waits for all.

/** How many calls start before the event loop gets a turn. */
export const START_GROUP = 16;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function startInGroups(count: number, start: (index: number) => Promise<void>, group = START_GROUP): Promise<void> {
  const running: Promise<void>[] = [];
  let failed: { error: unknown } | undefined;
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % group === 0) await nextTurn();
    // Handled at once: a call that fails while later groups are still starting must not be
    // an unhandled rejection. The first failure is rethrown once every call has settled.
    running.push(
      start(i).catch((error: unknown) => {
        failed ??= { error };
      }),
    );
  }
  await Promise.all(running);
  if (failed) throw failed.error;
}
