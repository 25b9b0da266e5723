// Which answer a key gives to a pending approval.
import type { Key } from 'ink';
import type { ApprovalAnswer } from '../../model/controls.js';

export function answerForKey(input: string, key: Key): ApprovalAnswer | undefined {
  if (key.escape) return 'deny';
  if (key.ctrl || key.meta) return undefined;
  switch (input.toLowerCase()) {
    case 'y':
      return 'allow_once';
    case 'a':
      return 'allow_session';
    case 'n':
      return 'deny';
    default:
      return undefined;
  }
}
