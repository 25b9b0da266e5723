// The environment arbor's own git commands run in (the file tools' listing, the ledger's
// work-tree snapshots, worktrees): only what git needs, so no provider key or token reaches
// the subprocess, no prompt can wait for a person, and no optional index write contends
// with the user's own git.
export function gitEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  };
}
