import { createElement } from 'react';
import { t } from '../../i18n/index.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { ListPicker, type PickerRow } from '../pickers/ListPicker.js';
import type { CommandContext, SlashCommand } from './registry.js';

export const MODEL_PANE_ID = 'model';

function describe(ctx: CommandContext): string {
  const info = ctx.runtime.info;
  const lines = [
    t('ui:commands.model.agent', { alias: info.agentAlias }),
    t('ui:commands.model.provider', { name: info.providerName }),
    t('ui:commands.model.model', { label: info.providerLabel }),
  ];
  if (info.autoDetectedFrom) lines.push(t('ui:commands.model.autoDetected', { env: info.autoDetectedFrom }));
  return lines.join('\n');
}

function switchTo(runtime: RuntimeApi, provider: string, ctx: CommandContext): void {
  const info = runtime.info;
  if (provider === info.providerName) {
    ctx.print(t('ui:commands.model.unchanged', { alias: info.agentAlias, name: info.providerName, label: info.providerLabel }));
    return;
  }
  runtime.setModel?.(provider);
  ctx.print(
    t('ui:commands.model.switched', { alias: info.agentAlias, name: runtime.info.providerName, label: runtime.info.providerLabel }),
  );
}

/** /model: what the agent runs on now, and a picker of the configured providers to switch
 * to for the rest of the session. `/model <provider>` switches without the picker. */
export const modelCommand: SlashCommand = {
  name: 'model',
  summary: 'ui:commands.model.summary',
  usage: '/model [provider]',
  maxArgs: 1,
  completeArgs: (args, _partial, { runtime }) => (args.length === 0 && runtime.models ? runtime.models().map((c) => c.provider) : []),
  run(args, ctx) {
    const runtime = ctx.runtime;
    if (!runtime.models || !runtime.setModel) {
      ctx.print(describe(ctx));
      return;
    }
    if (args.length === 1) {
      if (ctx.isTurnRunning()) {
        ctx.print(t('ui:commands.notWhileRunning', { name: 'model' }), 'error');
        return;
      }
      switchTo(runtime, args[0], ctx);
      return;
    }
    const choices = runtime.models();
    const rows: PickerRow[] = choices.map((c) => ({ id: c.provider, label: `${c.provider}  ${c.label}`, current: c.current }));
    ctx.print(describe(ctx));
    ctx.openPane({
      id: MODEL_PANE_ID,
      render: (props) =>
        createElement(ListPicker, {
          title: t('ui:commands.model.pickerTitle', { alias: runtime.info.agentAlias }),
          rows,
          width: props.width,
          maxRows: props.maxRows,
          empty: t('ui:picker.noMatch'),
          initialId: choices.find((c) => c.current)?.provider,
          onCancel: props.close,
          onPick: (id: string) => {
            props.close();
            if (ctx.isTurnRunning()) {
              ctx.print(t('ui:commands.notWhileRunning', { name: 'model' }), 'error');
              return;
            }
            try {
              switchTo(runtime, id, ctx);
            } catch (err) {
              ctx.print(t('ui:commands.failed', { name: 'model', message: err instanceof Error ? err.message : String(err) }), 'error');
            }
          },
        }),
    });
  },
};
