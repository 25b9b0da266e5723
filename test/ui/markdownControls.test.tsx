// Numeric HTML entities can name control characters: the markdown view must not rebuild an
// escape sequence out of `&#27;` that the store had neutralised.
import React from 'react';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown, decodeEntities } from '../../src/ui/components/Markdown.js';

afterEach(() => cleanup());

describe('entities that name control characters', () => {
  it('decode to visible stand-ins, never to the control itself', () => {
    expect(decodeEntities('&#27;]52;c;aGk=&#7;')).toBe('␛]52;c;aGk=␇');
    expect(decodeEntities('&#x1b;[2J &#x9b;2J &#155;H')).toBe('␛[2J ␛[2J ␛[H');
    expect(decodeEntities('fine &amp; dandy &#x41;')).toBe('fine & dandy A');
  });

  it('the rendered reply carries no escape sequence built from entities', () => {
    const { lastFrame } = render(<Markdown text={'Title &#27;]0;ENTITY-TITLE&#7; and **bold &#x1b;[31m**'} width={80} />);
    const frame = lastFrame() ?? '';
    expect(frame).toContain('␛]0;ENTITY-TITLE␇');
    expect(frame).not.toContain('\u001b]0;');
    expect(frame).not.toContain('\u0007');
  });
});
