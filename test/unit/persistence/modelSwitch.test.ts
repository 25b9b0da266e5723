// A model switch (/model, --model) in the session file: written with the session's events
// (never alone), restored by --resume, carried into the session /clear starts, and checked
// against today's config on the way back.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import type { TranscriptItem } from '../../../src/runtime/types.js';
import { restoreSession } from '../../../src/persistence/sessionRestore.js';
import { sessionPath } from '../../../src/persistence/sessionFormat.js';
import { SessionRecorder } from '../../../src/cli/sessionRecorder.js';
import { TraceLog } from '../../../src/persistence/traceLog.js';
import { parseLaunchModel, restoredModel } from '../../../src/cli/launchModel.js';

const meta = { agentAlias: 'main', providerLabel: 'offline/demo', cwd: '/work/a' };
const user = (id: string, text: string): TranscriptItem => ({ id, kind: 'user', text, at: 1000 });
const zero = () => ({ tokensIn: 0, tokensOut: 0, costUsd: 0 });

let home: string;
let trace: TraceLog;
beforeAll(() => setLanguage('en'));
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-model-'));
  trace = new TraceLog(home);
});
afterEach(() => {
  trace.close();
  rmSync(home, { recursive: true, force: true });
});

const events = (id: string) =>
  readFileSync(sessionPath(home, id), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; provider?: string; model?: string })
    .filter((e) => e.type !== 'totals');

describe('the model switch in the session file', () => {
  it('is kept until the session has something in it, then written before that event; --resume gets the last one', () => {
    const rec = new SessionRecorder(home, meta);
    const sinks = rec.sinks(zero, trace);
    sinks.recordModel!({ provider: 'fake', model: 'first' });
    sinks.recordModel!({ provider: 'fake', model: 'big' });
    rec.flush(zero());
    expect(rec.written).toBe(false);
    expect(existsSync(join(home, 'sessions'))).toBe(false);
    sinks.appendItem!(user('u1', 'hello'));
    sinks.recordModel!({ provider: 'other' });
    rec.close(zero());
    expect(events(rec.id).map((e) => [e.type, e.provider, e.model])).toEqual([
      ['session', undefined, undefined],
      ['model', 'fake', 'big'],
      ['item', undefined, undefined],
      ['model', 'other', undefined],
    ]);
    expect(restoreSession(home, rec.id).model).toEqual({ provider: 'other' });
  });

  it('a session never switched restores none; a damaged model line is skipped with a warning', () => {
    const rec = new SessionRecorder(home, meta);
    rec.sinks(zero, trace).appendItem!(user('u1', 'hi'));
    rec.close(zero());
    expect(restoreSession(home, rec.id).model).toBeUndefined();
    const path = sessionPath(home, rec.id);
    writeFileSync(path, readFileSync(path, 'utf8') + JSON.stringify({ type: 'model', provider: 7 }) + '\n');
    const restored = restoreSession(home, rec.id);
    expect(restored.model).toBeUndefined();
    expect(restored.warnings).toEqual([`${path}, line 4: skipped a line that is not a session event arbor knows.`]);
  });

  it('/clear: the new session starts on the same model', () => {
    const rec = new SessionRecorder(home, meta);
    const sinks = rec.sinks(zero, trace);
    sinks.appendItem!(user('u1', 'old'));
    sinks.recordModel!({ provider: 'fake', model: 'big' });
    const first = rec.id;
    const next = sinks.startNewSession!();
    expect(next).not.toBe(first);
    sinks.appendItem!(user('u2', 'new'));
    rec.close(zero());
    expect(restoreSession(home, next).model).toEqual({ provider: 'fake', model: 'big' });
    expect(events(next).map((e) => e.type)).toEqual(['session', 'model', 'item']);
  });

  it('a resumed session that was switched carries the switch on, and into a /clear', () => {
    const rec = new SessionRecorder(home, meta);
    const sinks = rec.sinks(zero, trace);
    sinks.recordModel!({ provider: 'fake', model: 'big' });
    sinks.appendItem!(user('u1', 'hello'));
    rec.close(zero());
    const restored = restoreSession(home, rec.id);
    const again = new SessionRecorder(home, meta, restored);
    again.adoptModel(restored.model!, true);
    const s2 = again.sinks(zero, trace);
    s2.appendItem!(user('u2', 'more'));
    // Already in the file: not written twice.
    expect(events(rec.id).filter((e) => e.type === 'model')).toHaveLength(1);
    const next = s2.startNewSession!();
    s2.appendItem!(user('u3', 'fresh'));
    again.close(zero());
    expect(restoreSession(home, next).model).toEqual({ provider: 'fake', model: 'big' });
  });
});

describe('checking a model against the config at launch', () => {
  const config = loadConfigFromTexts(
    [
      {
        file: '/x/c.toml',
        text: '[providers.fake]\ntype = "offline"\n[providers.demo]\ntype = "offline"\nmodel = "d"\n[agents.main]\nprovider = "fake"\n',
      },
    ],
    {},
  ).config;

  it('--model: a bad value names the option, the value and the configured providers', () => {
    expect(parseLaunchModel('demo/other', config)).toEqual({ provider: 'demo', model: 'other' });
    expect(() => parseLaunchModel('gone/x', config)).toThrow('--model gone/x: No provider "gone" in the config (configured: fake, demo).');
  });

  it('a restored switch applies while its provider is configured; a gone one is a notice, and the default stays', () => {
    const ok = restoredModel(config, { model: { provider: 'demo', model: 'other' } } as never);
    expect(ok).toEqual({
      selection: { provider: 'demo', model: 'other' },
      notice: 'main uses offline/other, as when this session was saved (/model switches).',
    });
    const gone = restoredModel(config, { model: { provider: 'cloud', model: 'x' } } as never);
    expect(gone.selection).toBeUndefined();
    expect(gone.notice).toBe(
      'This session used cloud/x, which the config no longer has (No provider "cloud" in the config (configured: fake, demo).); main uses offline/arbor-offline.',
    );
    // A model name edited into the file with escapes in it is refused, not sent or shown raw.
    const odd = restoredModel(config, { model: { provider: 'demo', model: 'a\u001b[2Jb' } } as never);
    expect(odd.selection).toBeUndefined();
    expect(odd.notice).toContain('has no usable model name');
    expect(restoredModel(config, { model: { provider: 'demo', model: 'd' } } as never).selection).toEqual({ provider: 'demo' });
    expect(restoredModel(config, undefined)).toEqual({});
  });

  it('a session saved on what the default agent uses today says nothing on resume (#20 wording)', () => {
    expect(restoredModel(config, { model: { provider: 'fake' } } as never)).toEqual({ selection: { provider: 'fake' } });
    expect(restoredModel(config, { model: { provider: 'fake', model: 'arbor-offline' } } as never).notice).toBeUndefined();
    const starter = loadConfigFromTexts([], {}).config;
    expect(restoredModel(starter, { model: { provider: 'offline', model: 'arbor-offline' } } as never).notice).toBeUndefined();
    setLanguage('es');
    try {
      expect(restoredModel(config, { model: { provider: 'demo', model: 'other' } } as never).notice).toBe(
        'main usa offline/other, como cuando se guardó esta sesión (/model lo cambia).',
      );
      expect(restoredModel(config, { model: { provider: 'fake' } } as never).notice).toBeUndefined();
    } finally {
      setLanguage('en');
    }
  });
});
