// What a shell command changed in a git work tree: a snapshot before it runs and one after,
// compared path by path. Snapshot requests that arrive while one is being taken share the
// next one (taken after they asked, so it is still exact for each of them): a fan-out of a
// hundred commands costs a handful of `git status` runs, not two hundred. Commands that
// overlap in one tree cannot be told apart; their changes are marked `concurrent`.
import { join, relative, isAbsolute } from 'node:path';
import type { FileChange, FileEffect } from '../../model/ledger.js';
import { diffTexts } from './diffText.js';
import { indexContent, takeSnapshot, type Entry, type Snapshot } from './gitSnapshot.js';

export interface ShellWindow {
  /** Other activity in the same tree overlapped this one. */
  concurrent: boolean;
  before: Snapshot;
}

export interface ObservedChanges {
  /** `before`: the path's text before the command (null: it did not exist; absent: not
   * known — binary or too large), for the session's base (/diff). */
  files: Array<Omit<FileEffect, 'tool' | 'callId' | 'via'> & { before?: string | null }>;
  observed: 'git' | 'unobserved';
}

/** One git work tree's snapshots and the commands in flight in it. */
export class WorkTree {
  private inFlight: Promise<Snapshot> | undefined;
  private queued: Promise<Snapshot> | undefined;
  private readonly active = new Set<ShellWindow>();
  /** One path's change between two states, diffed once: overlapping commands all see the
   * same changes, and a fan-out of a hundred would otherwise diff each a hundred times. */
  private readonly changes = new Map<string, Change | null>();

  /** Bumped whenever arbor may have changed the tree: a command starts or ends, a file
   * tool wrote. A snapshot taken in one epoch is still exact for a command opening in it. */
  private epoch = 0;
  private inFlightEpoch = -1;
  /** Commands between their before snapshot and their close. */
  private running = 0;

  constructor(readonly top: string) {}

  /** A snapshot taken no earlier than this call. */
  snapshot(): Promise<Snapshot> {
    if (!this.inFlight) return this.start();
    this.queued ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<Snapshot> {
    const p = takeSnapshot(this.top);
    this.inFlight = p;
    this.inFlightEpoch = this.epoch;
    void p.finally(() => {
      if (this.inFlight === p) this.inFlight = undefined;
    });
    return p;
  }

  /** Before a command: its window opens (overlaps are marked both ways). */
  async open(): Promise<ShellWindow> {
    const w: ShellWindow = { concurrent: this.active.size > 0, before: { entries: new Map() } };
    for (const o of this.active) o.concurrent = true;
    this.active.add(w);
    // Nothing of arbor's ran in the tree since the snapshot in flight began: it is this
    // command's before as well (a fan-out of commands shares one `git status`).
    const shared = this.inFlight && this.running === 0 && this.inFlightEpoch === this.epoch ? this.inFlight : undefined;
    w.before = await (shared ?? this.snapshot());
    this.running++;
    this.epoch++;
    return w;
  }

  /** A file tool wrote into this tree: open command windows may see its change. */
  touched(): void {
    this.epoch++;
    for (const o of this.active) o.concurrent = true;
  }

  /** After the command: what changed between the two snapshots. */
  async close(w: ShellWindow, cwd: string): Promise<ObservedChanges> {
    this.running--;
    this.epoch++;
    try {
      const after = await this.snapshot();
      if (w.before.tooMany || after.tooMany || w.before.failed || after.failed) return { files: [], observed: 'unobserved' };
      const files = await compare(this.top, cwd, w.before, after, this.changes);
      return { files: files.map((f) => (w.concurrent ? { ...f, concurrent: true } : f)), observed: 'git' };
    } finally {
      this.active.delete(w);
    }
  }
}

const trees = new Map<string, WorkTree>();

export function workTreeFor(top: string): WorkTree {
  let tree = trees.get(top);
  if (!tree) trees.set(top, (tree = new WorkTree(top)));
  return tree;
}

function sameState(a: Entry | undefined, b: Entry | undefined): boolean {
  if (!a || !b) return a === b;
  return a.hash === b.hash;
}

async function contentOf(top: string, path: string, e: Entry | undefined): Promise<string | undefined> {
  if (e) return e.hash === null ? '' : e.content;
  return indexContent(top, path);
}

function displayPath(top: string, cwd: string, path: string): string {
  const abs = join(top, path);
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

type Change = Omit<ObservedChanges['files'][number], 'path'>;
const CHANGES_CACHE_MAX = 10_000;

async function compare(
  top: string,
  cwd: string,
  before: Snapshot,
  after: Snapshot,
  cache: Map<string, Change | null>,
): Promise<ObservedChanges['files']> {
  const paths = new Set([...before.entries.keys(), ...after.entries.keys()]);
  const out: ObservedChanges['files'] = [];
  for (const path of [...paths].sort()) {
    const b = before.entries.get(path);
    const a = after.entries.get(path);
    if (sameState(b, a)) continue;
    const key = `${path}\u0000${b?.code ?? ''}\u0000${b?.hash ?? ''}\u0000${a?.code ?? ''}\u0000${a?.hash ?? ''}`;
    let change = cache.get(key);
    if (change === undefined) {
      change = await changeOf(top, path, b, a);
      if (cache.size >= CHANGES_CACHE_MAX) cache.clear();
      cache.set(key, change);
    }
    if (change) out.push({ path: displayPath(top, cwd, path), ...change });
  }
  return out;
}

/** What happened to one path between two states, or null when nothing did. */
async function changeOf(top: string, path: string, b: Entry | undefined, a: Entry | undefined): Promise<Change | null> {
  // A path absent from one snapshot is clean there (the index's version), except that an
  // untracked or newly added path absent from the other side did not exist there.
  const existedBefore = b ? b.hash !== null : !(a?.code === '??' || a?.code[0] === 'A');
  const existsAfter = a ? a.hash !== null : b?.code !== '??';
  if (!existedBefore && !existsAfter) return null;
  const change: FileChange = existedBefore && !existsAfter ? 'deleted' : !existedBefore && existsAfter ? 'created' : 'modified';
  const oldText = existedBefore ? await contentOf(top, path, b) : '';
  const newText = existsAfter ? await contentOf(top, path, a) : '';
  // Binary or too large to diff: the change is known, its lines are not.
  const before = existedBefore ? oldText : null;
  if (oldText === undefined || newText === undefined)
    return { change, added: 0, removed: 0, diffCut: true, ...(before !== undefined ? { before } : {}) };
  if (oldText === newText) return null;
  const d = diffTexts(oldText, newText);
  return { change, added: d.added, removed: d.removed, diff: d.diff, ...(d.cut ? { diffCut: true } : {}), before };
}
