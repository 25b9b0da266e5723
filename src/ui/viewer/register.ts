// The viewer's entry points: /transcript and Ctrl+O (global: it also closes the viewer).
// Their /help lines list the keys the viewer answers to.
import { createElement } from 'react';
import { t } from '../../i18n/index.js';
import type { SlashCommand } from '../commands/registry.js';
import type { KeyBinding } from '../keys/bindings.js';
import type { Pane } from '../panes/types.js';
import { isViewerOpen } from './openState.js';
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

const HELP_KEYS = ['move', 'expand', 'all', 'open', 'copy', 'search', 'close'];

export function viewerKeyBindings(): KeyBinding[] {
  return [
    {
      id: 'transcript-viewer',
      global: true,
      match: (input, key) => key.ctrl && input === 'o',
      run(ctx) {
        if (isViewerOpen(ctx.runtime)) {
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
        { label: 'transcript:keys.ctrlO', summary: 'transcript:keys.ctrlOSummary' },
        ...HELP_KEYS.map((k) => ({ label: `transcript:keys.viewer.${k}.label`, summary: `transcript:keys.viewer.${k}.summary` })),
      ],
    },
  ];
}
