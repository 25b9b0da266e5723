// arbor's Ink keeps each text node's squashed text (its children joined, their transforms
// applied) until the node or something under it changes (vendor/ink/build/squash-text-nodes.js).
// These tests hold that kept text to what the unchanged upstream Ink 6.8.0 computes afresh on
// the same nodes after every kind of change, and the frames drawn to upstream's render of the
// same element: a changed text is measured, wrapped and drawn anew.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Box, render, Text, Transform } from 'ink';
import { SizedStdout, sleep } from '../harness.js';
import { QuietStdin } from '../../support/quietStdin.js';

interface Node {
  nodeName: string;
  nodeValue?: string;
  childNodes: Node[];
  parentNode?: Node;
  internal_transform?: (s: string, i: number) => string;
}
type Squash = (node: Node) => string;

const inkDir = new URL('../../../node_modules/ink/build/', import.meta.url);
const upstreamDir = new URL('../../../node_modules/ink-upstream/build/', import.meta.url);
const dom = (await import(new URL('dom.js', inkDir).href)) as {
  createNode(name: string): Node;
  createTextNode(text: string): Node;
  appendChildNode(parent: Node, child: Node): void;
  insertBeforeNode(parent: Node, child: Node, before: Node): void;
  removeChildNode(parent: Node, child: Node): void;
  setTextNodeValue(node: Node, text: string): void;
};
const { default: squash } = (await import(new URL('squash-text-nodes.js', inkDir).href)) as { default: Squash };
const { default: upstreamSquash } = (await import(new URL('squash-text-nodes.js', upstreamDir).href)) as { default: Squash };
const { default: upstreamRenderToString } = (await import(new URL('render-to-string.js', upstreamDir).href)) as {
  default: (el: React.ReactElement, o?: { columns?: number }) => string;
};

/** A small deterministic generator, so a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('the kept squashed text', () => {
  it('is what upstream computes afresh, after every text change, insertion, move and removal', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rnd = random(seed);
      const pick = <T,>(list: T[]) => list[Math.floor(rnd() * list.length)];
      const root = dom.createNode('ink-text');
      const containers: Node[] = [root];
      const texts: Node[] = [];
      let n = 0;
      const word = () => `w${n++}${rnd() < 0.2 ? '\n' : ''}`;
      for (let step = 0; step < 400; step++) {
        const r = rnd();
        const attached = (x: Node) => {
          for (let c: Node | undefined = x; c; c = c.parentNode) if (c === root) return true;
          return false;
        };
        const live = texts.filter(attached);
        const boxes = containers.filter(attached);
        if (r < 0.3 || live.length === 0) {
          const t = dom.createTextNode(word());
          texts.push(t);
          dom.appendChildNode(pick(boxes), t);
        } else if (r < 0.45) {
          const v = dom.createNode('ink-virtual-text');
          // Some nested texts transform what they hold, as <Text color> does.
          if (rnd() < 0.5) v.internal_transform = (s, i) => `<${i}:${s}>`;
          containers.push(v);
          dom.appendChildNode(pick(boxes), v);
        } else if (r < 0.7) {
          dom.setTextNodeValue(pick(live), word());
        } else if (r < 0.8) {
          const t = pick(live);
          dom.removeChildNode(t.parentNode!, t);
        } else if (r < 0.9) {
          // Moved in front of another node, possibly under another parent.
          const t = pick(live);
          const before = pick([...live, ...boxes.filter((b) => b !== root)]);
          if (before !== t && before.parentNode && !isAncestor(t, before.parentNode)) dom.insertBeforeNode(before.parentNode, t, before);
        } else {
          const v = pick(boxes.filter((b) => b !== root));
          if (v?.parentNode) dom.removeChildNode(v.parentNode, v);
        }
        // Read mid-way too: a kept text at any depth must not outlive a change under it.
        const some = pick(boxes);
        expect(squash(some), `seed ${seed}, step ${step}, inner node`).toBe(upstreamSquash(some));
        expect(squash(root), `seed ${seed}, step ${step}`).toBe(upstreamSquash(root));
      }
    }
  });

  it('is kept while nothing under the node changes', () => {
    const root = dom.createNode('ink-text');
    const inner = dom.createNode('ink-virtual-text');
    let calls = 0;
    inner.internal_transform = (s) => {
      calls++;
      return s.toUpperCase();
    };
    dom.appendChildNode(root, inner);
    dom.appendChildNode(inner, dom.createTextNode('abc'));
    expect(squash(root)).toBe('ABC');
    expect(squash(root)).toBe('ABC');
    expect(calls).toBe(1);
    dom.setTextNodeValue(inner.childNodes[0], 'xyz');
    expect(squash(root)).toBe('XYZ');
    expect(calls).toBe(2);
  });
});

function isAncestor(node: Node, of: Node): boolean {
  for (let c: Node | undefined = of; c; c = c.parentNode) if (c === node) return true;
  return false;
}

const upper = (s: string) => s.toUpperCase();
const bracket = (s: string) => `[${s}]`;

interface RowProps {
  words: string[];
  inner: string;
  transform: (s: string) => string;
  width: number;
}

function Row({ words, inner, transform, width }: RowProps) {
  return (
    <Box flexDirection="column" width={width}>
      <Text>
        {words.map((w, i) => (
          <Text key={w} bold={i % 2 === 0}>
            {w}{' '}
          </Text>
        ))}
        <Transform transform={transform}>
          <Text>{inner}</Text>
        </Transform>
      </Text>
      <Text wrap="truncate-end">{`${inner} ${words.join('+')}`}</Text>
    </Box>
  );
}

describe('frames drawn from kept texts', () => {
  let unmount: (() => void) | undefined;
  afterEach(() => {
    unmount?.();
    unmount = undefined;
  });

  it('match upstream after a text grows and wraps, shrinks, a transform changes and children move', async () => {
    const columns = 30;
    const stdout = new SizedStdout(columns, 20);
    const steps: RowProps[] = [
      { words: ['one', 'two'], inner: 'short', transform: upper, width: 24 },
      // Longer: measured again, so the row wraps.
      { words: ['one', 'two'], inner: 'a much longer inner text here', transform: upper, width: 24 },
      // Only the transform changes.
      { words: ['one', 'two'], inner: 'a much longer inner text here', transform: bracket, width: 24 },
      // Shorter again: one row.
      { words: ['one', 'two'], inner: 'x', transform: bracket, width: 24 },
      // Children reordered, one added, one removed.
      { words: ['three', 'one'], inner: 'x', transform: bracket, width: 24 },
      { words: ['three', 'four', 'one', 'two'], inner: 'y', transform: upper, width: 12 },
    ];
    const instance = render(<Row {...steps[0]} />, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new SizedStdout(columns, 20) as unknown as NodeJS.WriteStream,
      stdin: new QuietStdin() as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    unmount = () => instance.unmount();
    for (const [i, step] of steps.entries()) {
      if (i > 0) instance.rerender(<Row {...step} />);
      await sleep(5);
      const want = upstreamRenderToString(<Row {...step} />, { columns });
      expect(stdout.writes[stdout.writes.length - 1], `step ${i}`).toBe(want);
    }
  });
});
