// The /agents pane during a 1,000-child fan-out (issue 24: "/agents usable while it runs"):
// one root turn makes 1,000 `spawn_subagent` calls at once (as spawn-fanout.bench.js's
// `fanout` scenario, workers/fanoutPaneScenario.js; limits raised to 1,000), interactive arbor (the installed package)
// in a pty with /agents open, and `j` pressed over and over from the first child's row until
// every child's stream has closed at the server: the children's starts, their wait on the
// model (FANOUT_CHILD_MS) and their 1,000 answers all happen under the presses. The same
// presses once nothing is live (1,000 finished rows) are the floor beside it.
import { fakeTrustedProvider } from './benchConfig.js';
import { ROOT_PROMPT } from './fanoutScript.js';
import { FANOUT_PANE_WARMUP, FANOUT_PANE_WARMUP_ANSWER } from '../workers/fanoutPaneScenario.js';
import { closeRun, startArbor, withScreen } from './arborTerm.js';
import { distUrl } from './paths.js';
import { header, isReady, keyToFrame, typeLine } from './paneKeys.js';

const { sleep } = await import(distUrl('support/terminal.js'));
const { tempArborHome, writeConfig } = await import(distUrl('support/tempHome.js'));

export const FANOUT_CHILDREN = 1000;
/** How long each child waits on its model before it answers. */
export const FANOUT_CHILD_MS = 5000;
const MAX_PRESSES = 600;
const FLOOR_PRESSES = 30;

function fanoutConfig(url, children) {
  return `default_agent = "main"

${fakeTrustedProvider(url)}

[runtime_profiles.fanout]
parallel_tools = true

[agents.main]
provider = "fake"
risk_profile = "trusted"
runtime_profile = "fanout"

[delegation]
max_concurrent = ${children}
max_children_per_agent = ${children}
`;
}

/**
 * One fan-out with the pane open. Returns the key → frame samples while children were live
 * (`live`), how many of them came before every child's request had reached the server
 * (`duringStarts`), the floor's samples once all had finished, and the server's check that
 * every result came back to its own call.
 * @param {{ request: (m: object) => Promise<any>, nextEvent: (match: (e: any) => boolean, timeoutMs?: number) => Promise<any> }} server
 * @param {string} marker the input prompt as on screen (paneKeys.readyMarker)
 */
export async function fanoutPaneRun(server, marker, { cols, rows }) {
  const { url } = await server.request({
    cmd: 'open',
    scenario: 'fanout-pane',
    options: { children: FANOUT_CHILDREN, childDelayMs: FANOUT_CHILD_MS },
  });
  const h = tempArborHome({ prefix: 'arbor-bench-fanout-pane-', fastTimings: false });
  writeConfig(h.dir, fanoutConfig(url, FANOUT_CHILDREN));
  const term = await startArbor(h, { cols, rows });
  let inFlight = false;
  let ended = false;
  // Settled either way, so a run that fails early leaves no rejection behind.
  const events = [
    server.nextEvent((e) => e.event === 'fanoutInFlight', 120000).then(() => (inFlight = true)),
    server.nextEvent((e) => e.event === 'fanoutEnded', 120000).then(() => (ended = true)),
  ].map((p) => p.catch((err) => err));
  try {
    await term.timeUntil(isReady(marker), { what: 'the input prompt', timeoutMs: 30000 });
    await sleep(300); // raw mode: see streaming.bench.js
    // As agents-pane's runs: a first turn, then the fan-out as the session's next one.
    await typeLine(term, FANOUT_PANE_WARMUP);
    await term.timeUntilText(FANOUT_PANE_WARMUP_ANSWER, { where: 'all', timeoutMs: 20000 });
    await term.timeUntil(isReady(marker), { what: 'the input prompt after the warm-up', timeoutMs: 10000 });
    // The warm-up's turn must be over, or the prompt waits as type-ahead (agents-pane waits too).
    await sleep(1000);
    await typeLine(term, ROOT_PROMPT);
    // The pane opens once the root's turn has asked for the fan-out.
    const deadline = Date.now() + 30000;
    while ((await server.request({ cmd: 'stats' })).stats.rootCalls < 1) {
      if (Date.now() > deadline) throw new Error("the root's request never reached the model");
      await sleep(20);
    }
    await typeLine(term, '/agents');
    await term.timeUntil((t) => (header(t.screen())?.rows ?? 0) >= 2, { what: 'the pane with a child row', timeoutMs: 60000 });
    const live = [];
    let duringStarts = 0;
    // One press at a time, each timed; which phase it fell in is read before it.
    while (!ended && live.length < MAX_PRESSES) {
      // While the root's reply still streams its calls, the presses can outrun the rows
      // (each child's row appears as its call is parsed): wait, untimed, for a row below
      // the selection, so a press always has somewhere to move.
      await term.timeUntil(
        (t) => {
          const hd = header(t.screen());
          return ended || (hd?.selected !== undefined && hd.selected < hd.rows);
        },
        { what: 'a row below the selection', timeoutMs: 60000, pollMs: 100 },
      );
      if (ended) break;
      const starting = !inFlight;
      const one = await keyToFrame(term, 1, () => ended, 60000);
      if (one.length === 0) break;
      live.push(one[0]);
      if (starting) duringStarts++;
    }
    if (!ended) throw new Error(`the fan-out did not end within ${MAX_PRESSES} presses`);
    await Promise.all(events);
    await term.timeUntil(
      (t) => {
        const hd = header(t.screen());
        return hd !== undefined && hd.running === 0 && hd.queued === 0 && hd.finished >= FANOUT_CHILDREN;
      },
      { what: `the pane showing ${FANOUT_CHILDREN} finished`, timeoutMs: 60000 },
    );
    // Every result back at the root: its second request carries them all.
    const resultsBy = Date.now() + 60000;
    let check;
    while (!(check = (await server.request({ cmd: 'stats' })).stats.resultCheck)) {
      if (Date.now() > resultsBy) throw new Error('the root never sent its request with the results');
      await sleep(100);
    }
    const floor = await keyToFrame(term, FLOOR_PRESSES);
    term.press('esc');
    await sleep(300);
    term.press('ctrl-d');
    await term.exitsWithin(10000);
    return { live, duringStarts, floor, resultCheck: check };
  } catch (err) {
    throw await withScreen(term, err);
  } finally {
    await closeRun(term, h, server);
  }
}
