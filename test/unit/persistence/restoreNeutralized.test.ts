// --resume must not replay escape sequences, even from a session written before arbor
// neutralised text (or edited since): items, child items, runs and the session list come
// back inert.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSessions, restoreSession } from '../../../src/persistence/sessionRestore.js';
import { makeRun } from '../../helpers/runs.js';
import { activeStrings } from '../../helpers/activeText.js';

const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';
const TITLE = '\u001b]0;title\u001b\\';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

describe('restoring a session with raw escapes in it', () => {
  it('neutralises items, child items, runs and the listed first message; the model history stays as written', () => {
    home = mkdtempSync(join(tmpdir(), 'arbor-restore-'));
    mkdirSync(join(home, 'sessions'));
    const id = '20260101-000000-abcdef';
    const at = 1;
    const events = [
      { type: 'session', version: 1, id, createdAt: new Date(0).toISOString(), agentAlias: 'main', providerLabel: 'x/y', cwd: '/' },
      { type: 'item', item: { id: 'u', kind: 'user', text: `ask ${TITLE}`, at } },
      { type: 'message', message: { role: 'user', content: `ask ${TITLE}` } },
      { type: 'item', item: { id: 'a', kind: 'assistant', runId: 'r', text: `answer ${OSC52}\u009b2J`, at } },
      { type: 'message', message: { role: 'assistant', content: `answer ${OSC52}` } },
      {
        type: 'item',
        item: {
          id: 't',
          kind: 'tool',
          runId: 'r',
          callId: 'c',
          name: 'shell',
          args: { command: `printf '${TITLE}'` },
          rawArgs: '{}',
          status: 'ok',
          result: `out ${OSC52}`,
          startedAt: at,
        },
      },
      { type: 'item', item: { id: 'n', kind: 'notice', level: 'error', text: `server said ${TITLE}`, at } },
      { type: 'child_item', runId: 'child', item: { id: 'ca', kind: 'assistant', runId: 'child', text: `child ${OSC52}`, at } },
      {
        type: 'run',
        run: makeRun('child', {
          rootRunId: 'r',
          parentRunId: 'r',
          depth: 1,
          alias: 'helper',
          kind: 'subagent',
          status: 'completed',
          task: `task ${TITLE}`,
          sessionKey: 'subagent-1',
          model: 'x/y',
          createdAt: at,
          iterations: 1,
          result: `result ${OSC52}`,
          error: undefined,
        }),
      },
    ];
    writeFileSync(join(home, 'sessions', `${id}.jsonl`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    // A file whose name itself carries an escape is not a session arbor wrote.
    writeFileSync(join(home, 'sessions', `evil\u001b]0;x\u0007.jsonl`), '');

    const restored = restoreSession(home);
    expect(restored.id).toBe(id);
    expect(activeStrings({ items: restored.items, children: restored.childItems, runs: restored.runs })).toEqual([]);
    expect(restored.items.find((i) => i.id === 'a')).toMatchObject({ text: 'answer ␛]52;c;cHduZWQ=␇␛[2J' });
    expect(restored.runs[0]).toMatchObject({ task: 'task ␛]0;title␛\\', result: 'result ␛]52;c;cHduZWQ=␇' });
    // What the model reads back is what was said; it is never drawn.
    expect(restored.messages[1]).toEqual({ role: 'assistant', content: `answer ${OSC52}` });

    const list = listSessions(home);
    expect(list.map((s) => s.id)).toEqual([id]);
    expect(list[0].firstUserMessage).toBe('ask ␛]0;title␛\\');
  });
});
