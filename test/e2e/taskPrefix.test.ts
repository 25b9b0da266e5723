// A background task's short id, as its notice shows it, checked from a later headless run
// in a new session (issue #20 item 9): resolved from the task records under ARBOR_HOME.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT, sandbox } from './sandbox.js';

describe('short task ids across runs', { timeout: PROCESS_TEST_TIMEOUT * 2 }, () => {
  it('check task <8 chars> in a later run answers from the record the first run left', async (ctx) => {
    const sb = sandbox(ctx);
    const first = await sb.arbor(['-p', 'delegate in background to researcher: dig into Y']);
    expect(first.code, first.stderr).toBe(0);
    const short = /Background task ([0-9a-f]{8}) \(researcher\) completed/.exec(first.stderr)?.[1];
    expect(short, first.stderr).toBeDefined();
    const [file] = readdirSync(join(sb.h.home, 'tasks'));
    expect(file.startsWith(short!)).toBe(true);

    const later = await sb.arbor(['-p', `check task ${short}`]);
    expect(later.stdout).not.toContain('Invalid task_id');
    expect(later.stdout).not.toContain('No result found');
    expect(later.stdout).toContain('Done: dig into Y');
    expect(later.code, later.stderr).toBe(0);
    // Two sessions: the check ran in a new one, not the one that started the task.
    expect(readdirSync(join(sb.h.home, 'sessions')).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
  });
});
