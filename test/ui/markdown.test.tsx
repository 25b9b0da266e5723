import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Markdown, decodeEntities } from '../../src/ui/components/Markdown.js';
import { plain } from './harness.js';

afterEach(() => cleanup());

function md(text: string, width = 60): string {
  return plain(render(<Markdown text={text} width={width} />).lastFrame());
}

describe('Markdown', () => {
  it('renders headings and emphasis without the markup', () => {
    const out = md('# Title\n\n## Sub\n\nSome *em*, _also em_, **strong** and ~~gone~~ text.');
    expect(out).toContain('Title');
    expect(out).toContain('Sub');
    expect(out).toContain('Some em, also em, strong and gone text.');
    expect(out).not.toMatch(/[#*_~]/);
  });

  it('renders bullet, numbered, nested and task lists', () => {
    const out = md('- one\n- two\n  1. inner a\n  2. inner b\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo');
    expect(out).toMatch(/• one\n• two\n {2}1\. inner a\n {2}2\. inner b/);
    expect(out).toMatch(/3\. three\n4\. four/);
    expect(out).toContain('☒ done');
    expect(out).toContain('☐ todo');
    expect(out).not.toContain('- ');
    expect(out).not.toContain('[x]');
  });

  it('renders fenced code verbatim, without the fences', () => {
    const out = md('Before\n\n```python\ndef f(x):\n\treturn x * 2  # **not bold**\n```\n\nAfter');
    expect(out).not.toContain('```');
    expect(out).toContain('python');
    expect(out).toContain('def f(x):');
    expect(out).toContain('    return x * 2  # **not bold**');
    expect(out.indexOf('Before')).toBeLessThan(out.indexOf('def f'));
    expect(out.indexOf('def f')).toBeLessThan(out.indexOf('After'));
  });

  it('shows inline code and links as text (url)', () => {
    const out = md('Run `npm test`, read [the docs](https://example.com/docs) or <https://example.com>.', 200);
    expect(out).toContain('Run npm test, read the docs (https://example.com/docs) or https://example.com.');
    expect(out).not.toContain('`');
    expect(out).not.toContain('](');
  });

  it('renders blockquotes with a bar and no ">"', () => {
    const out = md('> quoted **words**\n> more');
    expect(out).toMatch(/│ quoted words/);
    expect(out).not.toContain('>');
  });

  it('renders tables as aligned columns', () => {
    const out = md('| name | n |\n|---|---|\n| apple | 1 |\n| fig | 22 |');
    expect(out).toContain('name  │ n');
    expect(out).toContain('apple │ 1');
    expect(out).toContain('fig   │ 22');
    expect(out).not.toContain('|---');
  });

  it('wraps paragraphs to the width it is given', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const narrow = md(words, 20).split('\n');
    expect(narrow.length).toBeGreaterThan(8);
    for (const line of narrow) expect(line.trimEnd().length).toBeLessThanOrEqual(20);
    expect(md(words, 200).split('\n').length).toBe(1);
  });

  it('decodes HTML entities a model may write', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#39;d&#39; &#x41; &bogus;')).toBe("a & b <c> 'd' A &bogus;");
    expect(md('Tom &amp; Jerry')).toContain('Tom & Jerry');
  });

  it('survives odd input', () => {
    expect(md('')).toBe('');
    expect(md('```\nunterminated fence')).toContain('unterminated fence');
    expect(md('<div>raw html</div>')).toContain('raw html');
  });
});

describe('wrapped reply lines', () => {
  // A row exactly full used to push the space it broke at onto the next row (" Anthropic").
  it('a row that fills the width exactly does not start the next row with a space', () => {
    const text = 'add a provider (Ollama, vLLM, LM Studio, OpenAI, Anthropic, ...), or start arbor';
    const rows = md(text, 48).split('\n');
    expect(rows[0]).toBe('add a provider (Ollama, vLLM, LM Studio, OpenAI,');
    expect(rows[1]).toBe('Anthropic, ...), or start arbor');
    // Also inside bold text, and with no row left holding just the space.
    const bold = md('**bold words here** more', 10).split('\n');
    expect(bold).toEqual(['bold words', 'here more']);
  });

  it('a line keeps its own indentation', () => {
    expect(md('```\n  indented code\n    more\n```', 40)).toContain('  indented code');
  });
});
