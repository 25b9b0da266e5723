// The ledger as people read it (cards, /agents, /subagents info, the background notice, the
// tree export): one summary line, the ⚠ flags and what each one is based on. Localized;
// the model's receipt is tools/receipt.ts.
import { t } from '../i18n/index.js';
import { commandEnding, commandFailed, type ObservedFlag, type ObservedSummary } from './ledger.js';

const COMMAND_CHARS = 60;

export function oneLineCommand(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return one.length > COMMAND_CHARS ? `${one.slice(0, COMMAND_CHARS - 1)}…` : one;
}

/** `7 tool calls (1 failed) · 3 files changed +40 −12 · 2 commands, 1 failed (npm test → exit 1)` */
export function observedLine(s: ObservedSummary): string {
  const parts = [
    t('ledger:toolCalls', { count: s.toolCalls }) + (s.failedCalls > 0 ? t('ledger:failedSuffix', { count: s.failedCalls }) : ''),
  ];
  parts.push(
    s.files.length ? t('ledger:filesChanged', { count: s.files.length, added: s.added, removed: s.removed }) : t('ledger:noFiles'),
  );
  if (s.commands.length > 0) {
    const failed = s.commands.filter(commandFailed);
    let text = t('ledger:commands', { count: s.commands.length });
    if (failed.length > 0)
      text += `, ${t('ledger:commandsFailed', { count: failed.length, first: `${oneLineCommand(failed[0].command)} → ${commandEnding(failed[0])}` })}`;
    parts.push(text);
  }
  if (s.mcpCalls > 0) parts.push(t('ledger:mcp', { count: s.mcpCalls, failed: s.mcpFailed }));
  if (s.unobservedCommands > 0) parts.push(t('ledger:notObserved', { count: s.unobservedCommands }));
  return parts.join(' · ');
}

/** The flag as the ⚠ mark says it. */
export function flagLabel(flag: ObservedFlag): string {
  return flag.kind === 'last_command_failed'
    ? t('ledger:flag.last_command_failed', { ending: flag.ending })
    : t(`ledger:flag.${flag.kind}`);
}

/** What the flag is based on: what was claimed, what was observed. */
export function flagReason(flag: ObservedFlag, s: ObservedSummary): string {
  switch (flag.kind) {
    case 'no_tools':
      return t('ledger:why.no_tools');
    case 'claims_changes':
      return t('ledger:why.claims_changes', { verb: flag.verb, calls: observedLine(s) });
    case 'last_command_failed':
      return t('ledger:why.last_command_failed', { command: oneLineCommand(flag.command), ending: flag.ending });
  }
}

/** `⚠ no tools used · ⚠ claims changes, none observed` (empty without flags). */
export function flagsText(flags: readonly ObservedFlag[]): string {
  return flags.map((f) => `⚠ ${flagLabel(f)}`).join(' · ');
}
