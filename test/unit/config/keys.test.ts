// [keys] in config.toml: overrides of the key table, validated like the rest of the config.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { parseKeySpec } from '../../../src/config/keySpec.js';
import { BASE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

describe('[keys]', () => {
  it('takes a key or a list of keys per command', () => {
    const { config, warnings } = load(`${BASE}\n[keys.agents]\nkill = "d"\n[keys.chat]\nnewline = ["alt+enter", "ctrl+j"]\n`);
    expect(config.keys).toEqual({ 'agents.kill': ['d'], 'chat.newline': ['alt+enter', 'ctrl+j'] });
    expect(warnings).toEqual([]);
  });

  it('no [keys] leaves the defaults', () => {
    expect(load(BASE).config.keys).toBeUndefined();
  });

  it('an unknown command is an error naming the key path and the known commands', () => {
    const err = loadError(`${BASE}\n[keys.agents]\nexplode = "e"\n`);
    expect(err.keyPath).toBe('keys.agents.explode');
    expect(err.message).toContain('unknown key command "explode"');
    expect(err.message).toContain('kill_all');
  });

  it('an unknown group is an error naming the groups', () => {
    const err = loadError(`${BASE}\n[keys.nope]\nsend = "enter"\n`);
    expect(err.keyPath).toBe('keys.nope.send');
    expect(err.message).toMatch(/unknown key group "nope" \(known: chat, edit, approval, agents, viewer, fanout\)/);
  });

  it('an unparseable key is an error naming the key path and the value', () => {
    const err = loadError(`${BASE}\n[keys.chat]\nsend = "hyper+enter"\n`);
    expect(err.keyPath).toBe('keys.chat.send');
    expect(err.message).toContain('"hyper+enter"');
    const empty = loadError(`${BASE}\n[keys.chat]\nsend = []\n`);
    expect(empty.keyPath).toBe('keys.chat.send');
    const number = loadError(`${BASE}\n[keys.chat]\nsend = 13\n`);
    expect(number.message).toContain('a key ("ctrl+t") or a non-empty list of keys');
  });
});

describe('key names', () => {
  it('reads the ways people write keys', () => {
    expect(parseKeySpec('Ctrl+T')).toEqual({ name: 't', ctrl: true, meta: false, shift: false });
    expect(parseKeySpec('ctrl+t')).toEqual(parseKeySpec('C+t'));
    expect(parseKeySpec('alt+b')).toEqual({ name: 'b', ctrl: false, meta: true, shift: false });
    expect(parseKeySpec('shift+enter')).toEqual({ name: 'return', ctrl: false, meta: false, shift: true });
    expect(parseKeySpec('shift+x')).toEqual(parseKeySpec('X'));
    expect(parseKeySpec('pgup')?.name).toBe('pageup');
    expect(parseKeySpec('space')?.name).toBe('space');
    expect(parseKeySpec('+')?.name).toBe('+');
    expect(parseKeySpec('ctrl++')).toEqual({ name: '+', ctrl: true, meta: false, shift: false });
    expect(parseKeySpec('f12')?.name).toBe('f12');
    for (const bad of ['', 'ctrl+', 'hyper+a', 'enterr', 'ctrl+ab']) expect(parseKeySpec(bad)).toBeUndefined();
  });
});
