// What the chat screen adds for watching and steering the agent tree: /agents (the pane),
// /subagents (the commands) and Ctrl+T (opens or closes the pane, from anywhere).
import React from 'react';
import type { SlashCommand } from '../commands/registry.js';
import type { KeyBinding } from '../keys/bindings.js';
import type { Pane } from '../panes/types.js';
import { AgentsPane } from './AgentsPane.js';
import { subagentsCommand } from './subagentsCommand.js';
import { formatAgentList } from './agentsList.js';
import { t } from '../../i18n/index.js';
import type { AgentDefinition } from '../../config/agentList.js';

export interface AgentsOptions {
  /** [delegation] archive_after_minutes. */
  archiveAfterMinutes: number;
  /** The defined agents and where each came from (`/agents list`). */
  definitions?: AgentDefinition[];
}

export const AGENTS_PANE_ID = 'agents';

export function agentsPane(opts: AgentsOptions): Pane {
  return {
    id: AGENTS_PANE_ID,
    // Enter, arrows and Esc are the pane's; Enter on an asking row hands them to the prompt.
    holdsApprovalKeys: true,
    render: (props) => React.createElement(AgentsPane, { ...props, archiveAfterMinutes: opts.archiveAfterMinutes }),
  };
}

export function agentsCommands(opts: AgentsOptions): SlashCommand[] {
  const pane = agentsPane(opts);
  const agents: SlashCommand = {
    name: 'agents',
    summary: 'agents:commands.agents',
    usage: '/agents [list]',
    maxArgs: 1,
    completeArgs: (args) => (args.length === 0 ? ['list'] : []),
    run(args, ctx) {
      if (args[0] === undefined) ctx.openPane(pane);
      else if (args[0] === 'list')
        ctx.print(formatAgentList(opts.definitions ?? [], { cwd: process.cwd(), home: ctx.sessions.home ?? '' }));
      else ctx.print(t('ui:commands.badArgs', { name: 'agents', usage: '/agents [list]' }), 'error');
    },
  };
  return [agents, subagentsCommand(opts)];
}

export function agentsKeyBindings(opts: AgentsOptions): KeyBinding[] {
  const pane = agentsPane(opts);
  return [
    {
      id: 'agents-pane',
      // Global: it must reach the pane (to close it) while the pane owns the keyboard.
      global: true,
      command: 'chat.agents',
      run(ctx) {
        // The App knows which pane is open at this key; a mount count kept by a component
        // effect may lag a quick close-then-reopen.
        if (ctx.openPaneId() === AGENTS_PANE_ID) ctx.closePane();
        else ctx.openPane(pane);
      },
      help: [{ commands: ['chat.agents'], summary: 'agents:keys.ctrlTSummary' }],
    },
  ];
}
