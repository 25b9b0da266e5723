// The URL-mode prompt in English and Spanish: the asking server and run, the message, the
// URL in full (wrapped, not cut, so it can be copied), the three choices with the focus on
// Open in browser, the opened note once the browser was started, and a height that matches
// the rows drawn.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../src/i18n/index.js';
import type { PendingElicitation } from '../../src/model/controls.js';
import { ElicitationPrompt, elicitationPromptHeight } from '../../src/ui/elicitation/ElicitationPrompt.js';
import { formOf } from '../../src/ui/elicitation/formState.js';
import { plain } from './harness.js';
import { renderSettled } from './settle.js';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

const request = (over: Partial<PendingElicitation> = {}): PendingElicitation => ({
  id: `u-${Math.random()}`,
  runId: 'r1',
  attribution: 'call',
  server: 'acme',
  message: 'Connect your Acme account',
  fields: [],
  createdAt: 0,
  mode: 'url',
  url: 'https://acme.example/oauth/connect?state=0123456789abcdef0123456789abcdef&scope=read%20write',
  ...over,
});

async function frameOf(e: PendingElicitation, width = 60): Promise<string> {
  const app = await renderSettled(
    <ElicitationPrompt elicitation={e} path="main › researcher#1" position={{ n: 1, of: 1 }} width={width} maxMessageLines={4} />,
  );
  return plain(app.lastFrame());
}

describe('URL request prompt', () => {
  it('in English: who asks, the message, the whole URL, the choices', async () => {
    setLanguage('en');
    const e = request();
    const frame = await frameOf(e);
    expect(frame).toContain('MCP link: server acme asks main › researcher#1 to visit…');
    expect(frame).toContain('Connect your Acme account');
    // Wrapped at the box's width, every character still there.
    const joined = frame
      .split('\n')
      .map((l) => l.replace(/^[│\s]+|[│\s]+$/g, ''))
      .join('');
    expect(joined).toContain(`URL:${e.url}`);
    expect(frame).toContain('› [Open in browser]');
    expect(frame).toContain("[I've done it]");
    expect(frame).toContain('[Decline]');
    expect(frame).toContain('↑/↓ move · Enter choose · o open · Ctrl+X decline · Esc…');
    expect(frame).not.toContain('Opened in your browser');
    expect(frame.split('\n').length).toBe(elicitationPromptHeight(e, formOf(e), 60, 4));

    const opened = request({ opened: true, attribution: 'unknown' });
    const after = await frameOf(opened, 100);
    expect(after).toContain("Opened in your browser. Choose “I've done it” when you have finished there.");
    expect(after).toContain('No run had a call in flight on this server: shown for the root.');
    expect(after.split('\n').length).toBe(elicitationPromptHeight(opened, formOf(opened), 100, 4));
  });

  it('in Spanish', async () => {
    setLanguage('es');
    const e = request({ opened: true });
    const frame = await frameOf(e, 100);
    expect(frame).toContain('Enlace MCP: el servidor acme pide a main › researcher#1 visitar una página');
    expect(frame).toMatch(
      /│ URL: +│\n│ https:\/\/acme\.example\/oauth\/connect\?state=0123456789abcdef0123456789abcdef&scope=read%20write +│/,
    );
    expect(frame).toContain('› [Abrir en el navegador]');
    expect(frame).toContain('[Ya lo hice]');
    expect(frame).toContain('[Rechazar]');
    expect(frame).toContain('Abierta en tu navegador. Elige «Ya lo hice» cuando hayas terminado allí.');
    expect(frame).toContain('↑/↓ mover · Enter elegir · o abrir · Ctrl+X rechazar · Esc cancelar');
  });
});
