// The transcript and run fields that carry outside text, neutralised in one place so the
// store and the session restore apply the same rule (see untrusted.ts). Type imports only:
// this stays below every layer that calls it.
import type { Run } from '../model/run.js';
import type { TranscriptItem } from '../model/transcript.js';
import { neutralize, neutralizeDeep, neutralizeMaybe } from './untrusted.js';

/** A transcript item whose every displayed string is inert. Returns the same object when
 * nothing changed. */
export function neutralizeItem(item: TranscriptItem): TranscriptItem {
  switch (item.kind) {
    case 'assistant': {
      const text = neutralizeMaybe(item.text);
      // Reasoning is model text too, shown as dim lines and in the viewer.
      const reasoning = item.reasoning === undefined ? undefined : neutralizeMaybe(item.reasoning);
      if (text === item.text && reasoning === item.reasoning) return item;
      return reasoning === undefined ? { ...item, text } : { ...item, text, reasoning };
    }
    case 'user':
    case 'notice': {
      const text = neutralizeMaybe(item.text);
      return text === item.text ? item : { ...item, text };
    }
    case 'tool': {
      const name = neutralizeMaybe(item.name);
      const rawArgs = neutralizeMaybe(item.rawArgs);
      const args = neutralizeDeep(item.args);
      const result = item.result === undefined ? undefined : neutralizeMaybe(item.result);
      // What the children were observed doing, and the display's paths, commands, answers
      // and diff lines: all outside text.
      const observed = item.observed === undefined ? undefined : neutralizeDeep(item.observed);
      const display = item.display === undefined ? undefined : neutralizeDeep(item.display);
      if (
        name === item.name &&
        rawArgs === item.rawArgs &&
        args === item.args &&
        result === item.result &&
        observed === item.observed &&
        display === item.display
      )
        return item;
      return {
        ...item,
        name,
        rawArgs,
        args,
        result,
        ...(observed !== undefined ? { observed } : {}),
        ...(display !== undefined ? { display } : {}),
      };
    }
    default:
      return item;
  }
}

/** The fields of a run that carry outside text: the task a model wrote, its answer, errors. */
const RUN_TEXT_FIELDS = ['task', 'result', 'error', 'alias', 'model'] as const;

/** A run patch (or a whole run) with its outside text neutralised. Same object when clean. */
export function neutralizeRunFields<T extends Partial<Run>>(patch: T): T {
  let out: T | undefined;
  for (const key of RUN_TEXT_FIELDS) {
    const value = patch[key];
    if (typeof value !== 'string') continue;
    const clean = neutralize(value);
    if (clean !== value) (out ??= { ...patch })[key] = clean as T[typeof key];
  }
  if (patch.lastTool && typeof patch.lastTool.name === 'string') {
    const name = neutralize(patch.lastTool.name);
    if (name !== patch.lastTool.name) (out ??= { ...patch }).lastTool = { ...patch.lastTool, name };
  }
  if (patch.observed) {
    const observed = neutralizeDeep(patch.observed);
    if (observed !== patch.observed) (out ??= { ...patch }).observed = observed;
  }
  return out ?? patch;
}
