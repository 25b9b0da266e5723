import { createElement } from 'react';
import { t } from '../../i18n/index.js';
import type { ModelChoice, RuntimeApi } from '../../runtime/runtimeApi.js';
import { ListPicker } from '../pickers/ListPicker.js';
import type { PickerRow } from '../pickers/pickerRows.js';
import type { CommandContext, SlashCommand } from './registry.js';

export const MODEL_PANE_ID = 'model';

function describe(ctx: CommandContext): string {
  const info = ctx.runtime.store.getState().info;
  const lines = [
    t('ui:commands.model.agent', { alias: info.agentAlias }),
    t('ui:commands.model.provider', { name: info.providerName }),
    t('ui:commands.model.model', { label: info.providerLabel }),
  ];
  if (info.autoDetectedFrom) lines.push(t('ui:commands.model.autoDetected', { env: info.autoDetectedFrom }));
  // A runtime with nothing to switch to lists no models.
  if (ctx.runtime.models().length > 0) lines.push(t('models:switchHint'));
  return lines.join('\n');
}

const choiceId = (c: ModelChoice): string => c.id ?? c.provider;

/** `spec` is "<provider>" or "<provider>/<model>"; the runtime checks it and says what is wrong. */
function switchTo(runtime: RuntimeApi, spec: string, ctx: CommandContext): void {
  const info = runtime.store.getState().info;
  if (runtime.models().some((c) => c.current && choiceId(c) === spec)) {
    ctx.print(t('ui:commands.model.unchanged', { alias: info.agentAlias, name: info.providerName, label: info.providerLabel }));
    return;
  }
  runtime.setModel(spec);
  const now = runtime.store.getState().info;
  ctx.print(t('ui:commands.model.switched', { alias: now.agentAlias, name: now.providerName, label: now.providerLabel }));
}

/** /model: what the agent runs on now, and a picker of the configured providers and models
 * (runtime.models()) to switch to for the rest of the session. `/model <provider>[/<model>]`
 * switches without the picker, to another model name on a provider too. */
export const modelCommand: SlashCommand = {
  name: 'model',
  summary: 'ui:commands.model.summary',
  usage: '/model [provider[/model]]',
  maxArgs: 1,
  completeArgs: (args, _partial, { runtime }) => (args.length === 0 ? runtime.models().map(choiceId) : []),
  run(args, ctx) {
    const runtime = ctx.runtime;
    // Nothing to switch to: say what the agent uses.
    if (runtime.models().length === 0) {
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
    const rows: PickerRow[] = choices.map((c) => ({
      id: choiceId(c),
      label: `${choiceId(c)}  ${c.label}${c.agents?.length ? `  ${t('ui:commands.model.usedBy', { agents: c.agents.join(', ') })}` : ''}`,
      current: c.current,
    }));
    const current = choices.find((c) => c.current);
    ctx.print(describe(ctx));
    ctx.openPane({
      id: MODEL_PANE_ID,
      render: (props) =>
        createElement(ListPicker, {
          title: t('ui:commands.model.pickerTitle', { alias: runtime.store.getState().info.agentAlias }),
          rows,
          width: props.width,
          maxRows: props.maxRows,
          empty: t('ui:picker.noMatch'),
          initialId: current && choiceId(current),
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
