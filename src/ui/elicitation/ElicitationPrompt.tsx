// An MCP server's form at the head of the queue: which server asks for which run (a child
// by its path in the tree; the root, said so, when the run could not be told), the server's
// message (neutralised by the runtime), one row per field — its title, * when required, the
// value being edited — with the validation message under a wrong one, then Submit and
// Decline, and the keys (elicitation/keys.ts handles them). A URL-mode request has its own
// view (UrlElicitationPrompt).
import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { ElicitFieldSpec, PendingElicitation } from '../../model/controls.js';
import { t } from '../../i18n/index.js';
import { ElicitationHeader, messageLines } from './ElicitationHeader.js';
import { formOf, subscribeForms, type FieldValue, type FormState } from './formState.js';
import { UrlElicitationPrompt, urlElicitationHeight } from './UrlElicitationPrompt.js';

export interface ElicitationPromptProps {
  elicitation: PendingElicitation;
  /** The asking run's path: `main`, `main › researcher#1`. */
  path: string;
  position: { n: number; of: number };
  width: number;
  /** Most rows the server's message may take. */
  maxMessageLines: number;
}

/** Border (2), title, attribution note, message, fields, errors, Submit, Decline, hint. */
export function elicitationPromptHeight(e: PendingElicitation, form: FormState, width: number, maxMessageLines: number): number {
  if (e.mode === 'url') return urlElicitationHeight(e, width, maxMessageLines);
  const note = e.attribution === 'call' ? 0 : 1;
  return 2 + 1 + note + messageLines(e, width, maxMessageLines).length + e.fields.length + Object.keys(form.errors).length + 3;
}

function shownValue(field: ElicitFieldSpec, v: FieldValue, focused: boolean): React.ReactNode {
  if ('flag' in v) return v.flag === undefined ? t('ui:elicit.unset') : v.flag ? t('ui:elicit.yes') : t('ui:elicit.no');
  if ('choice' in v) {
    const label = field.kind === 'enum' ? field.options[v.choice]?.label : undefined;
    return `‹ ${label ?? t('ui:elicit.unset')} ›`;
  }
  const { text, cursor } = v.text;
  if (!focused) return text;
  const at = text.slice(cursor, cursor + 1);
  return (
    <>
      {text.slice(0, cursor)}
      <Text inverse>{at || ' '}</Text>
      {text.slice(cursor + (at ? 1 : 0))}
    </>
  );
}

const kindLabel = (f: ElicitFieldSpec) => t(`ui:elicit.kind.${f.kind}`);

export function ElicitationPrompt(props: ElicitationPromptProps) {
  if (props.elicitation.mode === 'url') {
    const { position } = props;
    const queued = position.of > 1 ? ` ${t('ui:approval.queue', { n: position.n, of: position.of })}` : '';
    return <UrlElicitationPrompt {...props} queued={queued} />;
  }
  return <FormElicitationPrompt {...props} />;
}

function FormElicitationPrompt({ elicitation: e, path, position, width, maxMessageLines }: ElicitationPromptProps) {
  const form = useSyncExternalStore(
    subscribeForms,
    () => formOf(e),
    () => formOf(e),
  );
  const queued = position.of > 1 ? ` ${t('ui:approval.queue', { n: position.n, of: position.of })}` : '';
  const n = e.fields.length;
  const action = (i: number, label: string, color: string) => (
    <Text wrap="truncate-end" inverse={form.focus === i}>
      {form.focus === i ? '› ' : '  '}
      <Text color={color} bold>{`[${label}]`}</Text>
    </Text>
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="blue" paddingX={1} width={width}>
      <ElicitationHeader
        e={e}
        title="ui:elicit.title"
        request="ui:elicit.request"
        queued={queued}
        path={path}
        width={width}
        maxMessageLines={maxMessageLines}
      />
      {e.fields.map((field, i) => {
        const focused = form.focus === i;
        const error = form.errors[i];
        return (
          <React.Fragment key={field.key}>
            <Text wrap="truncate-end">
              <Text color={focused ? 'cyan' : undefined}>{focused ? '› ' : '  '}</Text>
              <Text bold={focused}>{field.title}</Text>
              {field.required && <Text color="red">*</Text>}
              <Text dimColor>{` (${kindLabel(field)}): `}</Text>
              <Text>{shownValue(field, form.values[i], focused)}</Text>
              {field.description && <Text dimColor>{`  ${field.description}`}</Text>}
            </Text>
            {error && (
              <Text color="red" wrap="truncate-end">
                {`    ${t(`ui:elicit.error.${error}`, { field: field.title })}`}
              </Text>
            )}
          </React.Fragment>
        );
      })}
      {action(n, t('ui:elicit.submit'), 'green')}
      {action(n + 1, t('ui:elicit.decline'), 'red')}
      <Text dimColor wrap="truncate-end">
        {t('ui:elicit.hint')}
      </Text>
    </Box>
  );
}
