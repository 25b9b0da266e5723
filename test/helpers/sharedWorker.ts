// Setup file of the `unit` project, whose files share worker processes (isolate: false).
// A file that leaves a global replaced breaks the files after it, far from the cause: a fake
// setTimeout of an uninstalled clock (a spy on it restored after useRealTimers) made every
// later timer in the worker never fire, and a retry test run after it timed out. At the start
// of each file this checks that the clock, the working folder, the environment and the
// language are as the worker began; if not, it puts them back (so one file fails, not every
// one after it) and fails that file, naming the file that ran before it in the worker.
import { relative } from 'node:path';
import { beforeAll } from 'vitest';
import { currentLanguage, setLanguage, type Language } from '../../src/i18n/index.js';

const CLOCK = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date'] as const;
type Clock = Record<(typeof CLOCK)[number], unknown>;

interface WorkerStart {
  clock: Clock;
  cwd: string;
  env: Record<string, string | undefined>;
  language: Language;
  previous?: string;
}

// Setup files run again for every file; what the worker began with lives on globalThis.
const KEY = Symbol.for('arbor.test.sharedWorkerStart');
const holder = globalThis as unknown as Record<symbol, WorkerStart | undefined>;
const globals = globalThis as unknown as Record<string, unknown>;

/** vitest sets these per file itself. */
const ownedByVitest = (name: string) => name.startsWith('VITEST');

const start = (holder[KEY] ??= {
  clock: Object.fromEntries(CLOCK.map((k) => [k, globals[k]])) as Clock,
  cwd: process.cwd(),
  env: { ...process.env },
  language: currentLanguage(),
});

/** What differs from the worker's start, put back as it was. */
function restoreStart(): string[] {
  const changed: string[] = [];
  for (const k of CLOCK) {
    if (globals[k] === start.clock[k]) continue;
    changed.push(`globalThis.${k}`);
    globals[k] = start.clock[k];
  }
  if (process.cwd() !== start.cwd) {
    changed.push(`the working folder (${process.cwd()})`);
    process.chdir(start.cwd);
  }
  const names = new Set([...Object.keys(start.env), ...Object.keys(process.env)]);
  for (const name of [...names].filter((n) => !ownedByVitest(n)).sort()) {
    if (process.env[name] === start.env[name]) continue;
    changed.push(`$${name}`);
    if (start.env[name] === undefined) delete process.env[name];
    else process.env[name] = start.env[name];
  }
  // src modules are shared by the files of a worker: t() would answer in the other language.
  if (currentLanguage() !== start.language) {
    changed.push(`the language (${currentLanguage()})`);
    setLanguage(start.language);
  }
  return changed;
}

// vitest reads the first parameter's destructuring for fixtures; this hook takes none.
// eslint-disable-next-line no-empty-pattern
beforeAll(({}, suite) => {
  const file = relative(start.cwd, suite.file.filepath);
  const previous = start.previous;
  start.previous = file;
  const changed = restoreStart();
  if (changed.length === 0) return;
  throw new Error(
    `${changed.join(', ')} changed at the start of ${file}: ${previous ?? 'a file'} ran before it in this ` +
      'worker and left it so (fake timers not uninstalled, a spy restored after them, an environment ' +
      'variable, folder or language change not undone). Put back; fix the file that changed it.',
  );
});
