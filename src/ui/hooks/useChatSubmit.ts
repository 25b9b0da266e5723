// What Enter on the chat line does: nothing while an ask holds the keyboard; a slash line
// runs its command; a message starts a turn, or while one runs waits as type-ahead and is
// sent once that turn ends (taken once).
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { t } from '../../i18n/index.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { isSlashLine, runSlashLine, unescapeSlash, type CommandContext, type CommandRegistry } from '../commands/registry.js';
import type { NoticeLevel } from '../theme.js';
import { normalizeNewlines, type InputController } from './useInputController.js';
import type { TypeAhead } from './useTypeAhead.js';

export interface ChatSubmitDeps {
  runtime: RuntimeApi;
  input: InputController;
  registry: CommandRegistry;
  commandContext: CommandContext;
  typeAhead: TypeAhead;
  clearFlash(): void;
  print(text: string, level?: NoticeLevel): void;
  /** A turn runs (the store's active root, or one just started). */
  turnRunning: boolean;
  /** The same, as keys between renders must see it (set here when a turn starts). */
  turnRunningRef: RefObject<boolean>;
  setPendingTurn(pending: boolean): void;
}

/** Leading blank lines and trailing whitespace of a message carry nothing. */
function tidyMessage(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

export function useChatSubmit(deps: ChatSubmitDeps) {
  const { runtime, input, typeAhead, clearFlash } = deps;
  const store = runtime.store;
  // Read from the store, not from this render: keys can arrive before the next one.
  // A waiting fan-out confirmation or MCP form holds the keyboard the same way.
  const askPendingNow = useCallback(
    () =>
      store.getState().controls.approvals.length > 0 ||
      (store.getState().controls.fanouts?.length ?? 0) > 0 ||
      (store.getState().controls.elicitations?.length ?? 0) > 0,
    [store],
  );

  const startMessage = (value: string) => {
    const text = tidyMessage(unescapeSlash(value));
    deps.setPendingTurn(true);
    deps.turnRunningRef.current = true;
    runtime
      .startTurn(text)
      .catch((err: unknown) =>
        deps.print(t('ui:errors.turnFailed', { message: err instanceof Error ? err.message : String(err) }), 'error'),
      )
      .finally(() => deps.setPendingTurn(false));
  };

  const onSubmit = () => {
    if (askPendingNow()) return;
    const value = normalizeNewlines(input.read());
    if (!value.trim()) return;
    if (isSlashLine(value)) {
      input.commit(value.trim());
      clearFlash();
      void runSlashLine(value, deps.registry, deps.commandContext);
      return;
    }
    input.commit(value);
    clearFlash();
    // Type-ahead: sent as the next turn when this one ends.
    if (deps.turnRunningRef.current) typeAhead.queue(value);
    else startMessage(value);
  };

  // The turn ended: the queued message is the next one, sent once (take() empties it).
  useEffect(() => {
    if (deps.turnRunning || askPendingNow()) return;
    const queued = typeAhead.take();
    if (queued !== undefined) startMessage(queued);
  });

  const submitRef = useRef(onSubmit);
  submitRef.current = onSubmit;
  const submit = useCallback(() => submitRef.current(), []);
  return { submit, askPendingNow };
}
