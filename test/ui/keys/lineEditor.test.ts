// The line editor's model: readline keys over text and a cursor, multi-line and wide text.
import { describe, expect, it } from 'vitest';
import * as ed from '../../../src/ui/input/lineEditor.js';

/** "ab|c" ↔ { text: 'abc', cursor: 2 } */
const s = (marked: string): ed.EditorState => ({ text: marked.replace('|', ''), cursor: marked.indexOf('|') });
const m = (st: ed.EditorState) => `${st.text.slice(0, st.cursor)}|${st.text.slice(st.cursor)}`;

describe('moving', () => {
  it('by character, word and line end', () => {
    expect(m(ed.left(s('abc|')))).toBe('ab|c');
    expect(m(ed.right(s('a|bc')))).toBe('ab|c');
    expect(m(ed.wordLeft(s('hello big world|')))).toBe('hello big |world');
    expect(m(ed.wordLeft(s('hello big |world')))).toBe('hello |big world');
    expect(m(ed.wordRight(s('|hello big')))).toBe('hello| big');
    expect(m(ed.wordRight(s('hello| big')))).toBe('hello big|');
    expect(m(ed.lineStart(s('one\ntw|o')))).toBe('one\n|two');
    expect(m(ed.lineEnd(s('o|ne\ntwo')))).toBe('one|\ntwo');
  });

  it('over wide characters and emoji as one step each', () => {
    expect(m(ed.left(s('漢字|')))).toBe('漢|字');
    expect(m(ed.left(s('a👍🏽|')))).toBe('a|👍🏽');
    expect(m(ed.backspace(s('a👨‍👩‍👧|b')))).toBe('a|b');
    expect(m(ed.deleteForward(s('|é́x')))).toBe('|x');
  });

  it('↑/↓ between the lines of a message keep the column; none past the first / last line', () => {
    expect(m(ed.lineUp(s('abcdef\nxy|z'))!)).toBe('ab|cdef\nxyz');
    expect(m(ed.lineDown(s('ab|cdef\nxyz'))!)).toBe('abcdef\nxy|z');
    expect(m(ed.lineDown(s('abcd|ef\nx'))!)).toBe('abcdef\nx|');
    expect(ed.lineUp(s('a|bc'))).toBeUndefined();
    expect(ed.lineDown(s('one\nt|wo'))).toBeUndefined();
    // Columns count cells: 漢 is two wide.
    expect(m(ed.lineUp(s('abcd\n漢|'))!)).toBe('ab|cd\n漢');
  });
});

describe('editing', () => {
  it('inserts at the cursor', () => {
    expect(m(ed.insert(s('ac|'), 'b'))).toBe('acb|');
    expect(m(ed.insert(s('|zy'), 'abc'))).toBe('abc|zy');
  });

  it('kills to the start, to the end, the word before; the kill is returned for yank', () => {
    const start = ed.killToStart(s('one\ntwo thr|ee'));
    expect(m(start.state)).toBe('one\n|ee');
    expect(start.killed).toBe('two thr');
    const end = ed.killToEnd(s('a|bc\nd'));
    expect(m(end.state)).toBe('a|\nd');
    expect(m(ed.killToEnd(s('a|\nd')).state)).toBe('a|d');
    const word = ed.killWordBack(s('git commit -m fix|'));
    expect(m(word.state)).toBe('git commit -m |');
    expect(word.killed).toBe('fix');
  });

  it('a kill straight after a kill joins the buffer, backward kills in front (readline)', () => {
    expect(ed.joinKill('commit', 'git ', true, true)).toBe('git commit');
    expect(ed.joinKill('abc', 'def', false, true)).toBe('abcdef');
    expect(ed.joinKill('old', 'new', true, false)).toBe('new');
  });

  it('pasted text loses control characters and escape sequences, keeps tabs and line breaks', () => {
    expect(ed.cleanInsert('a\r\nb\rc\td\x1b[31me\x1b]0;title\x07f\x00g\x9bh')).toBe('a\nb\nc\tdefgh');
  });
});

describe('layout', () => {
  it('wraps by cell width and hard line breaks', () => {
    const l = ed.layoutInput('abcdefgh\nxy', 4);
    expect(l.starts).toEqual([0, 4, 9]);
    expect(ed.rowOf(l, 5)).toBe(1);
    expect(ed.rowOf(l, 8)).toBe(1);
    expect(ed.rowOf(l, 10)).toBe(2);
    // Wide characters never straddle a row.
    expect(ed.layoutInput('ab漢字', 3).starts).toEqual([0, 2, 3]);
  });

  it('a cursor at the end of a long text sits on its last row', () => {
    const text = 'lorem ipsum '.repeat(1000);
    const l = ed.layoutInput(text, 98);
    expect(l.starts).toHaveLength(Math.ceil(text.length / 98));
    expect(ed.rowOf(l, text.length)).toBe(l.starts.length - 1);
  });
});
