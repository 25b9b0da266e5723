// What a key does to the chat line once no binding took it: editing commands from the key
// table, Enter (send, or a line break after a trailing "\"), printable keys typed.
import type { KeyCommand } from '../../config/keySpec.js';
import type { InputController } from '../hooks/useInputController.js';
import type { EditOp } from '../hooks/useLineEdits.js';
import type { KeyTable } from '../keys/keyTable.js';
import { keyText, type KeyPress } from '../keys/tokenizer.js';

const EDITS: [KeyCommand, EditOp][] = [
  ['edit.line_start', 'lineStart'],
  ['edit.line_end', 'lineEnd'],
  ['edit.left', 'left'],
  ['edit.right', 'right'],
  ['edit.word_left', 'wordLeft'],
  ['edit.word_right', 'wordRight'],
  ['edit.kill_start', 'killStart'],
  ['edit.kill_end', 'killEnd'],
  ['edit.kill_word', 'killWord'],
  ['edit.yank', 'yank'],
  ['edit.backspace', 'backspace'],
  ['edit.delete', 'delete'],
];

export function editorKey(k: KeyPress, keys: KeyTable, input: InputController, submit: () => void): void {
  if (keys.is('chat.send', k)) {
    const value = input.read();
    const cursor = input.readCursor();
    // "\" then Enter: a line break instead of sending (as in a shell).
    if (cursor > 0 && value[cursor - 1] === '\\') {
      input.edit('backspace');
      input.insert('\n');
      return;
    }
    submit();
    return;
  }
  if (keys.is('chat.newline', k)) {
    input.insert('\n');
    return;
  }
  for (const [command, op] of EDITS) {
    if (keys.is(command, k)) {
      input.edit(op);
      return;
    }
  }
  // Ctrl+D on a non-empty line (the quit binding passed it on): delete forward.
  if (keys.is('chat.quit', k)) {
    input.edit('delete');
    return;
  }
  const text = keyText(k);
  if (text) input.insert(text);
}
