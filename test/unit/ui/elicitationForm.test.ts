// The form prompt's state: defaults pre-filled per field kind, text edits through the line
// editor, booleans toggled and enums cycled, validation of required fields and numbers on
// submit (focus moves to the first wrong field), and the accepted content typed per schema.
import { describe, expect, it } from 'vitest';
import { formFields } from '../../../src/mcp/elicitation.js';
import type { PendingElicitation } from '../../../src/model/controls.js';
import { cycle, editText, moveFocus, newForm, submit, type FormState } from '../../../src/ui/elicitation/formState.js';

const form = (properties: Record<string, Record<string, unknown>>, required: string[] = []): PendingElicitation => ({
  id: 'e1',
  runId: 'r1',
  attribution: 'call',
  server: 's',
  message: 'm',
  fields: formFields({ properties, required }),
  createdAt: 0,
});

const type = (s: FormState, e: PendingElicitation, text: string) => editText(s, e, 'insert', text);

describe('elicitation form state', () => {
  const e = form(
    {
      name: { type: 'string', default: 'Ada' },
      age: { type: 'integer' },
      score: { type: 'number', default: 1.5 },
      ok: { type: 'boolean' },
      color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
      size: {
        type: 'string',
        oneOf: [
          { const: 's', title: 'Small' },
          { const: 'l', title: 'Large' },
        ],
        default: 'l',
      },
    },
    ['name', 'age', 'ok'],
  );

  it('pre-fills defaults and accepts them with the typed values', () => {
    let s = newForm(e);
    expect(s.values[0]).toEqual({ text: { text: 'Ada', cursor: 3 } });
    expect(s.values[2]).toEqual({ text: { text: '1.5', cursor: 3 } });
    expect(s.values[3]).toEqual({ flag: undefined });
    expect(s.values[4]).toEqual({ choice: -1 });
    expect(s.values[5]).toEqual({ choice: 1 });
    s = moveFocus(s, e, 1);
    s = type(s, e, '42');
    s = moveFocus(s, e, 2);
    s = cycle(s, e, 1);
    s = moveFocus(s, e, 1);
    s = cycle(s, e, -1);
    const out = submit(s, e);
    expect(out).toEqual({
      reply: { action: 'accept', content: { name: 'Ada', age: 42, score: 1.5, ok: true, size: 'l', color: 'green' } },
    });
  });

  it('refuses missing required fields and wrong numbers, focusing the first', () => {
    let s = newForm(e);
    s = editText(s, e, 'backspace');
    s = editText(s, e, 'left');
    s = editText(s, e, 'delete');
    expect(s.values[0]).toEqual({ text: { text: 'A', cursor: 1 } });
    s = editText(editText(s, e, 'right'), e, 'backspace');
    s = moveFocus(s, e, 2);
    s = editText(editText(editText(s, e, 'backspace'), e, 'backspace'), e, 'backspace');
    s = type(s, e, 'abc');
    let out = submit(s, e);
    expect('invalid' in out && out.invalid.errors).toEqual({ 0: 'required', 1: 'required', 2: 'number', 3: 'required' });
    expect('invalid' in out && out.invalid.focus).toBe(0);
    s = type('invalid' in out ? out.invalid : s, e, 'Grace');
    expect(s.errors[0]).toBeUndefined();
    s = moveFocus(s, e, 1);
    s = type(s, e, '3.5');
    out = submit(s, e);
    expect('invalid' in out && out.invalid.errors[1]).toBe('integer');
  });

  it('booleans toggle, enums cycle both ways and wrap; focus wraps over Submit and Decline', () => {
    let s = moveFocus(newForm(e), e, 3);
    s = cycle(cycle(s, e, 1), e, 1);
    expect(s.values[3]).toEqual({ flag: false });
    s = moveFocus(s, e, 1);
    s = cycle(cycle(cycle(s, e, 1), e, 1), e, 1);
    expect(s.values[4]).toEqual({ choice: 0 });
    // Text edits do nothing on a choice.
    expect(type(s, e, 'x')).toBe(s);
    expect(moveFocus(moveFocus(s, e, 3), e, 1).focus).toBe(0);
  });
});
