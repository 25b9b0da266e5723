// The hardening suite's path-escape variants (test/support/pathEscapes.ts) against a plain
// confined folder: every variant is refused with its reason, reads return nothing of the
// target and the target stays byte for byte as it was. The same table runs inside a git
// worktree in test/unit/worktrees/pathEscapes.test.ts.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFileTool } from '../../../src/tools/editFile.js';
import { globTool } from '../../../src/tools/glob.js';
import { grepTool } from '../../../src/tools/grep.js';
import { listFilesTool } from '../../../src/tools/listFiles.js';
import { readFileTool } from '../../../src/tools/readFile.js';
import type { Tool } from '../../../src/tools/types.js';
import { writeFileTool } from '../../../src/tools/writeFile.js';
import {
  ESCAPE_VARIANTS,
  TARGET_FILE,
  escapeLinks,
  targetText,
  treeState,
  type EscapeTool,
  type EscapeWorld,
} from '../../support/pathEscapes.js';
import { context } from './helpers.js';

const TOOLS: Record<EscapeTool, Tool> = {
  read_file: readFileTool,
  write_file: writeFileTool,
  edit_file: editFileTool,
  list_files: listFilesTool,
  grep: grepTool,
  glob: globTool,
};

let base: string;
let world: EscapeWorld;
let before: Record<string, string>;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-escapes-')));
  world = { root: join(base, 'work'), target: join(base, 'outside') };
  mkdirSync(world.root);
  mkdirSync(join(world.target, 'sub'), { recursive: true });
  writeFileSync(join(world.root, 'inside.txt'), 'inside\n');
  writeFileSync(join(world.target, TARGET_FILE), targetText(world.target));
  for (const [name, to] of escapeLinks(world)) symlinkSync(to, join(world.root, name));
  before = treeState(world.target);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the path-escape variants against a confined folder', () => {
  it.each(ESCAPE_VARIANTS.map((v) => [v.id, v] as const))('%s is refused', async (_id, variant) => {
    const r = await TOOLS[variant.tool].run(variant.args(world), context({ cwd: world.root }));
    expect(r.success).toBe(false);
    expect(r.error).toContain(variant.refusal);
    expect(`${r.output}${r.error}`).not.toContain(targetText(world.target).trim());
    expect(treeState(world.target)).toEqual(before);
  });
});
