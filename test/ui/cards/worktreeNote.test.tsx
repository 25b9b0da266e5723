// A card shows an isolated child's worktree note (issue #23) on the line after the child's
// answer, and after its failure too: a child that did not finish says where its branch
// keeps its changes. The card reads the display, never the model's text.
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { cardModel } from '../../../src/ui/cards/model.js';
import { toolItem } from './fixtures.js';

beforeEach(() => setLanguage('en'));

const NOTE = '[worktree: not merged — the child did not finish; branch arbor/abcd1234/3 keeps its changes]';
const texts = (item: ReturnType<typeof toolItem>) => cardModel(item)!.blocks.map((b) => b.text);

describe('the worktree note on a card', () => {
  it('a failed delegate child: its error, then the note', () => {
    const error = "Agent 'w1' failed: boom upstream";
    const item = toolItem(
      'delegate',
      { agent: 'w1', prompt: 'edit', isolation: 'worktree' },
      {
        status: 'error',
        result: `${error}\n${NOTE}`,
        display: { kind: 'delegate', action: 'delegate', targets: [{ target: 'w1', success: false, error, worktree: NOTE }] },
      },
    );
    expect(texts(item)).toEqual([`${error}\n${NOTE}`]);
  });

  it('a parallel call: the failed block carries its note, the answered one its own', () => {
    const merged = '[worktree: changes merged (1 file)]';
    const item = toolItem(
      'delegate',
      { parallel: ['w1', 'w2'], prompt: 'edit', isolation: 'worktree' },
      {
        status: 'ok',
        result: 'model text',
        display: {
          kind: 'delegate',
          action: 'delegate',
          parallel: true,
          targets: [
            { target: 'w1', success: true, answer: 'w1 done', worktree: merged },
            { target: 'w2', success: false, error: "Agent 'w2' failed: boom", worktree: NOTE },
          ],
        },
      },
    );
    expect(texts(item)).toEqual([`w1 done\n${merged}`, `Agent 'w2' failed: boom\n${NOTE}`]);
  });

  it('a failed spawn_subagent child: its error, then the note; without a note, the error alone', () => {
    const error = 'subagent run failed: boom upstream';
    const item = toolItem(
      'spawn_subagent',
      { prompt: 'edit job', isolation: 'worktree' },
      { status: 'error', result: `${error}\n${NOTE}`, display: { kind: 'spawn', error, worktree: NOTE } },
    );
    expect(texts(item)).toEqual([`${error}\n${NOTE}`]);
    const plain = toolItem('spawn_subagent', { prompt: 'job' }, { status: 'error', result: error, display: { kind: 'spawn', error } });
    expect(texts(plain)).toEqual([error]);
  });
});
