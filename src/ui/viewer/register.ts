// The viewer's entry points: /transcript and Ctrl+O (global: it also closes the viewer).
// Their /help lines list the keys the viewer answers to.
import { createElement } from 'react';
import { t, type KeyUnder } from '../../i18n/index.js';
import type { SlashCommand } from '../commands/registry.js';
import type { KeyCommand } from '../../config/keySpec.js';
import type { KeyBinding } from '../keys/bindings.js';
import type { Pane } from '../panes/types.js';
import { TranscriptViewer } from './TranscriptViewer.js';

export const VIEWER_PANE_ID = 'transcript';

export function viewerPane(): Pane {
  return { id: VIEWER_PANE_ID, render: (props) => createElement(TranscriptViewer, props) };
}

export function viewerCommands(): SlashCommand[] {
  return [
    {
      name: 'transcript',
      summary: 'transcript:command.summary',
      maxArgs: 0,
      run(_args, ctx) {
        ctx.openPane(viewerPane());
      },
    },
  ];
}

/** /help lines for the viewer's own keys: the commands each shows, and its summary. */
/** The viewer keys /help lists, each with its transcript:keys.viewer.<key>.summary. */
type ViewerHelpKey = KeyUnder<'transcript:keys.viewer.'> extends infer K ? (K extends `${infer B}.summary` ? B : never) : never;

const HELP_KEYS: [ViewerHelpKey, KeyCommand[]][] = [
  ['move', ['viewer.up', 'viewer.down', 'viewer.page_up', 'viewer.page_down', 'viewer.first', 'viewer.last']],
  ['expand', ['viewer.expand', 'viewer.expand_all']],
  ['open', ['viewer.open']],
  ['copy', ['viewer.copy', 'viewer.copy_all']],
  ['search', ['viewer.search', 'viewer.next_match', 'viewer.prev_match']],
  ['close', ['viewer.close']],
];

export function viewerKeyBindings(): KeyBinding[] {
  return [
    {
      id: 'transcript-viewer',
      global: true,
      command: 'chat.transcript',
      run(ctx) {
        if (ctx.openPaneId() === VIEWER_PANE_ID) {
          ctx.closePane();
          return;
        }
        // The approval prompt answers n and Esc; the viewer would take them too.
        if (ctx.approvalPending) {
          ctx.flash(t('transcript:viewer.answerApprovalFirst'));
          return;
        }
        ctx.openPane(viewerPane());
      },
      help: [
        { commands: ['chat.transcript'], summary: 'transcript:keys.ctrlOSummary' },
        ...HELP_KEYS.map(([k, commands]) => ({ commands, summary: `transcript:keys.viewer.${k}.summary` as const })),
      ],
    },
  ];
}
