// Git run in a test repository with a fixed identity and no system or user config, so a
// test sees the same git whatever the machine's settings.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@x',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@x',
    },
  });
}

/** A repository at `dir` whose one commit holds `files`. */
export function gitRepo(dir: string, files: Record<string, string>): void {
  git(dir, 'init', '-q');
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
}
