// The slash commands that make sense outside a terminal, as ACP available commands: a
// prompt that starts with one runs it instead of a model turn.
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { Runtime } from '../../runtime/runtime.js';
import { t } from '../../i18n/index.js';
import { configOptions } from './configOptions.js';

export function availableCommands(): acp.AvailableCommand[] {
  return [
    { name: 'clear', description: t('acp:commands.clear') },
    { name: 'model', description: t('acp:commands.model'), input: { hint: t('acp:commands.modelHint') } },
    { name: 'export', description: t('acp:commands.export') },
  ];
}

/** Runs `/name args` if it is one of ours; returns the updates that report it, or undefined. */
export function runCommand(runtime: Runtime, text: string): acp.SessionUpdate[] | undefined {
  const m = /^\/(clear|model|export)(?:\s+(.*))?$/s.exec(text.trim());
  if (!m) return undefined;
  const say = (msg: string): acp.SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: msg } });
  const arg = m[2]?.trim() ?? '';
  try {
    if (m[1] === 'clear') {
      // ACP cannot rename a session: the client keeps its id on this connection, while
      // arbor records what follows as a new session (as /clear does in the terminal), so
      // the old id loads only what came before. The reply names the new one.
      runtime.clear();
      return [say(t('acp:commands.cleared', { id: runtime.store.getState().sessionId }))];
    }
    if (m[1] === 'model') {
      if (!arg) {
        const list = (runtime.models?.() ?? []).map((c) => `${c.current ? '* ' : '  '}${c.id ?? c.provider} (${c.label})`);
        return [say(list.join('\n'))];
      }
      runtime.setModel?.(arg);
      return [
        say(t('acp:commands.modelSet', { model: arg })),
        { sessionUpdate: 'config_option_update', configOptions: configOptions(runtime) },
      ];
    }
    const res = runtime.exportTree?.();
    return [say(res ? t('acp:commands.exported', { path: res.path, runs: res.runs }) : t('acp:commands.unavailable'))];
  } catch (err) {
    return [say((err as Error).message)];
  }
}
