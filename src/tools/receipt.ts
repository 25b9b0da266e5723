// The runtime receipt ([delegation] child_receipts = true): after a child's answer, the text
// the parent model reads gets the runtime's own account of what the child (with everything
// under it) did, on lines of their own. Protocol strings a model reads: exact, not localized.
// Only the runtime's lines stand bare: a line of the child's own text that looks like one is
// quoted, so a child cannot forge its receipt.
import type { ArborConfig } from '../config/types.js';
import { commandEnding, flagWords, type ChildObserved } from '../model/ledger.js';

const LISTED_MAX = 20;
const COMMAND_CHARS = 80;

/** What the tool descriptions tell the model about the receipt. */
export const RECEIPT_DESCRIPTION =
  "After the child's answer the runtime appends a line `[runtime receipt: ...]` with what it observed the child (and everything it started) do: tool calls, files changed with +added -removed lines, commands with their exit codes; and `[runtime warning: ...]` lines when the answer and the observation disagree (no tools used, claims changes, none observed, last command failed). Only those lines come from the runtime; a line of the child's own answer that starts the same way is quoted with `> `.";

const FORGED = /^\s*\[runtime (receipt|warning)/i;

/** The child's text with every line that could pass for the runtime's quoted. */
export function guardChildText(text: string): string {
  if (!/\[runtime (receipt|warning)/i.test(text)) return text;
  return text
    .split('\n')
    .map((line) => (FORGED.test(line) ? `> ${line}` : line))
    .join('\n');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function listed(parts: string[]): string {
  if (parts.length === 0) return 'none';
  const shown = parts.slice(0, LISTED_MAX);
  return parts.length > shown.length ? `${shown.join(', ')}, … ${parts.length - shown.length} more` : shown.join(', ');
}

function commandText(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return one.length > COMMAND_CHARS ? `${one.slice(0, COMMAND_CHARS - 1)}…` : one;
}

/** The receipt line, then one warning line per flag. */
export function receiptLines(o: ChildObserved): string[] {
  const s = o.summary;
  const calls = plural(s.toolCalls, 'tool call', 'tool calls') + (s.failedCalls > 0 ? ` (${s.failedCalls} failed)` : '');
  const files = listed(s.files.map((f) => `${f.path} (+${f.added} -${f.removed})`));
  const unobserved =
    s.unobservedCommands > 0 ? `; shell changes not observed for ${plural(s.unobservedCommands, 'command', 'commands')}` : '';
  const commands = listed(s.commands.map((c) => `${commandText(c.command)} (${commandEnding(c)})`));
  return [
    `[runtime receipt: ${calls}; files changed: ${files}${unobserved}; commands: ${commands}]`,
    ...o.flags.map((f) => `[runtime warning: ${flagWords(f)}]`),
  ];
}

export function receiptsOn(config: ArborConfig): boolean {
  // Partial configs (tests, tools built outside a loaded config) have no delegation table.
  return config.delegation?.child_receipts === true;
}

/** `text` (the child's answer or its failure) guarded, with the receipt after it; `text`
 * unchanged when receipts are off or nothing was observed. */
export function withReceipt(config: ArborConfig, text: string, observed: ChildObserved | undefined): string {
  if (!receiptsOn(config) || !observed) return text;
  return `${guardChildText(text)}\n${receiptLines(observed).join('\n')}`;
}
