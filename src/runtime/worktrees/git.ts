// git as the worktree code runs it: no prompts, no pager, no optional index writes, an
// environment with nothing of the user's secrets, and a chosen index file when a snapshot
// must not touch the user's own index.
import { execFile } from 'node:child_process';
import { gitEnv } from '../../tools/gitEnv.js';

const GIT_TIMEOUT_MS = 120_000;
const GIT_MAX_BUFFER = 256 * 1024 * 1024;

export interface GitOptions {
  /** A private index (GIT_INDEX_FILE): the user's index is never written. */
  indexFile?: string;
  /** Exit codes that are answers, not failures (merge-file's conflict count). */
  okCodes?: number[];
  encoding?: 'utf8' | 'buffer';
}

export interface GitResult {
  stdout: string;
  buffer: Buffer;
  code: number;
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly cwd: string,
    readonly stderr: string,
    readonly code: number | undefined,
  ) {
    super(`git ${args.slice(0, 2).join(' ')} failed in ${cwd}: ${stderr.trim() || `exit ${code}`}`);
  }
}

function worktreeGitEnv(indexFile?: string): NodeJS.ProcessEnv {
  return {
    ...gitEnv(),
    // commit-tree needs an identity; the user's own is not ours to borrow or to require.
    GIT_AUTHOR_NAME: 'arbor',
    GIT_AUTHOR_EMAIL: 'arbor@localhost',
    GIT_COMMITTER_NAME: 'arbor',
    GIT_COMMITTER_EMAIL: 'arbor@localhost',
    ...(indexFile ? { GIT_INDEX_FILE: indexFile } : {}),
  };
}

export function runGit(cwd: string, args: string[], opts: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--no-optional-locks', '-c', 'core.quotepath=off', ...args],
      {
        cwd,
        encoding: 'buffer',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: GIT_MAX_BUFFER,
        env: worktreeGitEnv(opts.indexFile),
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? ((err as { code: number }).code as number)
            : undefined
          : 0;
        if (err && !(code !== undefined && opts.okCodes?.includes(code))) {
          reject(new GitError(args, cwd, String(stderr ?? ''), code));
          return;
        }
        const buffer = Buffer.isBuffer(stdout) ? stdout : Buffer.from(String(stdout));
        resolve({ stdout: buffer.toString('utf8'), buffer, code: code ?? 0 });
      },
    );
  });
}

export async function gitText(cwd: string, args: string[], opts: GitOptions = {}): Promise<string> {
  return (await runGit(cwd, args, opts)).stdout.trim();
}

/** The work tree's top folder holding `cwd`, or undefined outside one (or without git). */
export async function workTreeTop(cwd: string): Promise<string | undefined> {
  try {
    const inside = await gitText(cwd, ['rev-parse', '--is-inside-work-tree']);
    if (inside !== 'true') return undefined;
    return (await gitText(cwd, ['rev-parse', '--show-toplevel'])) || undefined;
  } catch {
    return undefined;
  }
}
