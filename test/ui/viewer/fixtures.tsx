// Helpers for the viewer tests: the chat App with the viewer's command and key binding on a
// terminal of a chosen size, and a session transcript to browse.
import React from 'react';
import type { TranscriptItem } from '../../../src/runtime/types.js';
import { App } from '../../../src/ui/App.js';
import { registerTranscriptCards } from '../../../src/ui/cards/register.js';
import { viewerCommands, viewerKeyBindings } from '../../../src/ui/viewer/register.js';
import { FakeRuntime } from '../fakeRuntime.js';
import { ENTER, plain, renderSized, SizedStdout } from '../harness.js';
import { pressInto } from '../settle.js';
import { toolItem } from '../cards/fixtures.js';
import { syncEnvelope } from '../../../src/tools/delegate/strings.js';

export const CTRL_O = '\u000F';
export const PGUP = '\u001B[5~';
export const PGDN = '\u001B[6~';

export interface ViewerApp {
  runtime: FakeRuntime;
  stdout: SizedStdout;
  /** The last frame's bottom `rows` lines: what the terminal shows. */
  screen(): string;
  press(data: string): Promise<void>;
  type(text: string): Promise<void>;
  /** Types `text` key by key, then presses Enter. */
  submit(text: string): Promise<void>;
  unmount(): void;
}

export async function mountViewerApp(runtime: FakeRuntime, columns = 100, rows = 30): Promise<ViewerApp> {
  registerTranscriptCards();
  const { stdout, stdin, instance } = await renderSized(
    <App
      runtime={runtime}
      sessions={{ list: () => [], currentId: 'x' }}
      onExit={() => {}}
      commands={viewerCommands()}
      keyBindings={viewerKeyBindings()}
    />,
    columns,
    rows,
  );
  const lastFrame = () => {
    for (let i = stdout.writes.length - 1; i >= 0; i--) {
      // The clipboard sequence is written on its own; it is not a frame.
      if (!stdout.writes[i].startsWith('\u001B]52;')) return plain(stdout.writes[i]);
    }
    return '';
  };
  return {
    runtime,
    stdout,
    screen: () => lastFrame().replace(/\n$/, '').split('\n').slice(-stdout.rows).join('\n'),
    press: (data: string) => pressInto(stdin, data),
    async type(text: string) {
      for (const ch of text) await pressInto(stdin, ch);
    },
    async submit(text: string) {
      for (const ch of text) await pressInto(stdin, ch);
      await pressInto(stdin, ENTER);
    },
    unmount: () => instance.unmount(),
  };
}

/** A finished session: `turns` turns of a question, a spawn_subagent card and a reply. */
export function sessionItems(turns: number, opts: { restored?: boolean } = {}): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const at = Date.parse('2025-03-01T09:00:00Z');
  for (let i = 1; i <= turns; i++) {
    const runId = `root-${i}`;
    items.push({ id: `u${i}`, kind: 'user', text: `question number ${i}`, at: at + i });
    const delegate = i % 2 === 0;
    items.push(
      toolItem(
        delegate ? 'delegate' : 'spawn_subagent',
        delegate ? { agent: 'reviewer', prompt: `review task ${i}` } : { prompt: `subtask ${i}` },
        {
          id: `t${i}`,
          runId,
          callId: `call-${i}`,
          restored: opts.restored || undefined,
          result: delegate ? syncEnvelope('reviewer', 'openai/gpt-4o', false, `review answer ${i}`) : `subtask answer ${i}`,
        },
      ),
    );
    items.push({ id: `a${i}`, kind: 'assistant', runId, text: `reply number ${i}`, at: at + i });
  }
  return items;
}
