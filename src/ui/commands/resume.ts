import { createElement } from 'react';
import { t } from '../../i18n/index.js';
import { ListPicker } from '../pickers/ListPicker.js';
import { sessionRows } from '../pickers/sessionRows.js';
import type { SlashCommand } from './registry.js';

export const RESUME_PANE_ID = 'resume';

/** /resume: the session picker in place of the input line; Enter leaves this chat for the
 * chosen session (this one stays saved and resumable). */
export const resumeCommand: SlashCommand = {
  name: 'resume',
  summary: 'ui:commands.resume.summary',
  maxArgs: 0,
  // Switching sessions mid-turn would abandon the reply being written.
  allowedWhileRunning: false,
  run(_args, ctx) {
    const sessions = ctx.sessions;
    if (!sessions.resume) {
      ctx.print(t('ui:commands.resume.unavailable'), 'error');
      return;
    }
    const list = sessions.list().filter((s) => s.id !== sessions.currentId);
    if (list.length === 0) {
      ctx.print(t('ui:commands.resume.none'));
      return;
    }
    const rows = sessionRows(list, sessions.currentId, sessions.home);
    ctx.openPane({
      id: RESUME_PANE_ID,
      render: (props) =>
        createElement(ListPicker, {
          title: t('ui:picker.sessionsTitle'),
          rows,
          width: props.width,
          maxRows: props.maxRows,
          empty: t('ui:picker.noMatch'),
          onCancel: props.close,
          onPick: (id: string) => {
            props.close();
            sessions.resume?.(id);
          },
        }),
    });
  },
};
