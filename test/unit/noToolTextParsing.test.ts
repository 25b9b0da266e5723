// No view and no provider reads the text a tool result gives the model: cards, the viewer
// and the offline model read the result's display (model/toolDisplay.ts). This scans their
// sources for the delegate formats' literal prefixes and for the tools' string builders;
// ui/cards/parse.ts (regexes over "[Agent '...' (...)]" and "[Parallel delegation: N
// agents]") and the offline script's envelope regex failed it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

const SCANNED = ['src/ui', 'src/providers'];

/** Model-facing result formats, as a source that parses them would spell them. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['the sync envelope head', /\\?\[Agent '/],
  ['the parallel header', /\\?\[Parallel delegation/],
  ['a parallel block marker', /`--- \$\{|'--- '|\^--- /],
  ['a parallel block error prefix', /'Error: '/],
  ['the background launch text', /Background task started for agent|task_id: \$\{|\^task_id: /],
  ['the write_file result text', /Wrote \d|'Wrote '/],
  ['the shell exit line', /\[exit code/],
  ['the delegate tool strings module', /tools\/delegate\/(strings|format)\.js/],
];

/** Views hold no JSON to parse but tool text (config and sessions are read below them):
 * resultPreview's JSON.parse of check_result's text failed this. */
const UI_FORBIDDEN: Array<[string, RegExp]> = [['parsing text as JSON', /JSON\.parse\(/]];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|tsx)$/.test(name)) out.push(path);
  }
  return out;
}

describe('views and providers read displays, not tool text', () => {
  it('no source under src/ui or src/providers spells a tool result format', () => {
    const found: string[] = [];
    for (const dir of SCANNED) {
      for (const file of sources(join(repoRoot, dir))) {
        const text = readFileSync(file, 'utf8');
        const rules = dir === 'src/ui' ? [...FORBIDDEN, ...UI_FORBIDDEN] : FORBIDDEN;
        for (const [what, re] of rules) if (re.test(text)) found.push(`${relative(repoRoot, file)}: ${what}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the check catches the parsing that used to be there', () => {
    const oldParse =
      "const ENVELOPE_HEAD = /^\\[Agent '(.+)' \\((.+)\\)\\]$/;\nconst PARALLEL_HEAD = /^\\[Parallel delegation: (\\d+) agents\\]\\n\\n/;";
    const oldOffline = "content.replace(/^\\[Agent '[^']*' \\([^)]*\\)\\]\\n?/, '')";
    for (const text of [oldParse, oldOffline]) expect(FORBIDDEN.some(([, re]) => re.test(text))).toBe(true);
    const oldPreview = 'let value: unknown;\ntry {\n  value = JSON.parse(result);\n} catch {';
    expect(UI_FORBIDDEN.some(([, re]) => re.test(oldPreview))).toBe(true);
  });
});
