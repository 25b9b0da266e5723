// The state of a server's form while the operator fills it: which row has focus (each field,
// then Submit and Decline), each field's value — text fields as a line-editor state
// (ui/input/lineEditor.ts), booleans and enums as a choice — and the validation messages of
// the last submit. Pure functions, so a burst of keys applies one after the other; the
// states live outside React (like the fan-out count) so the key binding and the prompt read
// the same one.
import type { ElicitFieldSpec, ElicitationReply, PendingElicitation } from '../../model/controls.js';
import { backspace, deleteForward, insert, left, right, type EditorState } from '../input/lineEditor.js';

export type FieldValue = { text: EditorState } | { flag: boolean | undefined } | { choice: number };

export interface FormState {
  id: string;
  /** 0..fields-1: a field; fields: Submit; fields+1: Decline. */
  focus: number;
  values: FieldValue[];
  /** Validation messages (i18n keys) by field index, from the last submit. */
  errors: Record<number, FormError>;
}

export type FormError = 'required' | 'number' | 'integer';

function initial(field: ElicitFieldSpec): FieldValue {
  if (field.kind === 'boolean') return { flag: field.default };
  if (field.kind === 'enum') return { choice: field.options.findIndex((o) => o.value === field.default) };
  const text = field.default === undefined ? '' : String(field.default);
  return { text: { text, cursor: text.length } };
}

export function newForm(e: PendingElicitation): FormState {
  return { id: e.id, focus: 0, values: e.fields.map(initial), errors: {} };
}

export const rowCount = (e: PendingElicitation) => e.fields.length + 2;

export function moveFocus(s: FormState, e: PendingElicitation, by: number): FormState {
  const n = rowCount(e);
  return { ...s, focus: (s.focus + by + n) % n };
}

function setValue(s: FormState, i: number, v: FieldValue): FormState {
  const values = s.values.slice();
  values[i] = v;
  const errors = { ...s.errors };
  delete errors[i];
  return { ...s, values, errors };
}

/** A text edit on the focused text/number field (others ignore it). */
export function editText(
  s: FormState,
  e: PendingElicitation,
  op: 'insert' | 'backspace' | 'delete' | 'left' | 'right',
  text = '',
): FormState {
  const v = s.values[s.focus];
  if (!v || !('text' in v)) return s;
  const next =
    op === 'insert'
      ? insert(v.text, text)
      : op === 'backspace'
        ? backspace(v.text)
        : op === 'delete'
          ? deleteForward(v.text)
          : op === 'left'
            ? left(v.text)
            : right(v.text);
  return next === v.text ? s : setValue(s, s.focus, { text: next });
}

/** Space / ← / →: a boolean toggles, an enum moves to the previous or next option. */
export function cycle(s: FormState, e: PendingElicitation, by: 1 | -1): FormState {
  const field = e.fields[s.focus];
  const v = s.values[s.focus];
  if (!field || !v) return s;
  if (field.kind === 'boolean' && 'flag' in v) return setValue(s, s.focus, { flag: v.flag === undefined ? by > 0 : !v.flag });
  if (field.kind === 'enum' && 'choice' in v) {
    const n = field.options.length;
    if (n === 0) return s;
    const from = v.choice < 0 ? (by > 0 ? -1 : 0) : v.choice;
    return setValue(s, s.focus, { choice: (from + by + n) % n });
  }
  return s;
}

/** The answer the form gives now, or the state with its validation messages. */
export function submit(s: FormState, e: PendingElicitation): { reply: ElicitationReply } | { invalid: FormState } {
  const content: Record<string, string | number | boolean> = {};
  const errors: Record<number, FormError> = {};
  e.fields.forEach((field, i) => {
    const v = s.values[i];
    let value: string | number | boolean | undefined;
    if ('flag' in v) value = v.flag;
    else if ('choice' in v) value = field.kind === 'enum' ? field.options[v.choice]?.value : undefined;
    else if ('text' in v) {
      const raw = v.text.text;
      if (field.kind === 'string') value = raw === '' ? undefined : raw;
      else if (raw.trim() !== '') {
        const num = Number(raw.trim());
        if (!Number.isFinite(num)) return void (errors[i] = 'number');
        if (field.kind === 'integer' && !Number.isInteger(num)) return void (errors[i] = 'integer');
        value = num;
      }
    }
    if (value === undefined) {
      if (field.required) errors[i] = 'required';
      return;
    }
    content[field.key] = value;
  });
  const bad = Object.keys(errors).map(Number);
  if (bad.length > 0) return { invalid: { ...s, errors, focus: bad[0] } };
  return { reply: { action: 'accept', content } };
}

type Listener = () => void;
const forms = new Map<string, FormState>();
const listeners = new Set<Listener>();

/** The form's state (made on first read and kept, so a snapshot is stable for React). */
export function formOf(e: PendingElicitation): FormState {
  let s = forms.get(e.id);
  if (!s) {
    s = newForm(e);
    forms.set(e.id, s);
  }
  return s;
}

export function setForm(s: FormState): void {
  forms.set(s.id, s);
  for (const l of [...listeners]) l();
}

export function forgetForm(id: string): void {
  forms.delete(id);
}

export function subscribeForms(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
