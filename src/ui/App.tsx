// The chat screen. Finished transcript items go to <Static> (printed once, kept in
// scrollback); the live region below holds the turn in flight, a pending approval, the
// input line (or a pane) and the status bar, and is budgeted to stay shorter than the
// terminal. The UI acts only through RuntimeApi and reads the store through selectors.
//
// Enter while a turn runs sends nothing: the text stays in the input and a hint says to
// press Enter again once the turn ends (or Esc to interrupt it). Slash commands still run.
import React, { useCallback, useEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import { Box, Static, Text, useStdout } from 'ink';
import { useStore } from 'zustand';
import type { RuntimeApi } from '../runtime/runtimeApi.js';
import { currentLanguage, setLanguage as setI18nLanguage, t, type Language } from '../i18n/index.js';
import { builtinCommands } from './commands/index.js';
import {
  CommandRegistry,
  isSlashLine,
  runSlashLine,
  unescapeSlash,
  type CommandContext,
  type SessionsSource,
  type SlashCommand,
} from './commands/registry.js';
import { ApprovalPrompt, approvalDiffScrollable, approvalMaxScroll, approvalPromptHeight } from './approval/ApprovalPrompt.js';
import { FanoutPrompt, fanoutPromptHeight } from './fanout/FanoutPrompt.js';
import { fanoutKeyBinding } from './fanout/keys.js';
import { ElicitationPrompt, elicitationPromptHeight } from './elicitation/ElicitationPrompt.js';
import { formOf, subscribeForms } from './elicitation/formState.js';
import { elicitationKeyBinding } from './elicitation/keys.js';
import { FeedEntryView } from './components/FeedEntryView.js';
import { InputLine, inputLineHeight } from './components/InputLine.js';
import { LIVE_TURN_MARGIN, LiveTurn } from './components/LiveTurn.js';
import { StatusBar, statusBarHeight } from './components/StatusBar.js';
import { QuotaBanner, quotaBannerHeight } from './components/QuotaBanner.js';
import { useChatKeys } from './hooks/useChatKeys.js';
import type { UiContext } from './uiContext.js';
import { useFlash } from './hooks/useFlash.js';
import { normalizeNewlines, useInputController } from './hooks/useInputController.js';
import { useRefStore } from './hooks/useRefStore.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';
import { useTypeAhead } from './hooks/useTypeAhead.js';
import { sanitizeLine, truncate } from './text/width.js';
import { editorKey } from './input/editorKeys.js';
import { defaultKeyBindings, helpLines, type KeyBinding } from './keys/bindings.js';
import { defaultKeyTable, KeyTableContext, type KeyTable } from './keys/keyTable.js';
import { RuntimeStoreContext } from './runtimeStoreContext.js';
import { runLabel, runPath } from '../runtime/runSelection.js';
import { useApprovalView } from './approval/useApprovalView.js';
import { approvalKeyBinding } from './approval/keys.js';
import type { Pane } from './panes/types.js';
import { QUIT_PANE_ID, quitQuestionPane } from './quit/QuitQuestion.js';
import { runningBackgroundTasks } from '../runtime/store.js';
import { PaneKeyBus, PaneKeysContext } from './panes/paneKeys.js';
import { FEED_BATCH_MS, StaticFeed, type FeedEntry } from './state/feed.js';
import type { NoticeLevel } from './theme.js';

export interface AppProps {
  runtime: RuntimeApi;
  sessions: SessionsSource;
  onExit: () => void;
  /** Shown once at start (e.g. config warnings from the CLI). */
  initialNotices?: string[];
  /** Slash commands added by later features, next to the built-in ones. */
  commands?: SlashCommand[];
  /** Key bindings added by later features; they see keys before the built-in ones. */
  keyBindings?: KeyBinding[];
  /** Keeps /lang's choice for the next start; returns the file it was written to. */
  saveLanguage?(lang: Language): string;
  /** The key table with the user's `[keys]` overrides (defaults when omitted). */
  keyTable?: KeyTable;
}

/** Clears the screen and the scrollback, cursor home. */
export const CLEAR_SCREEN = '\u001B[2J\u001B[3J\u001B[H';
/** Clears the visible screen only, cursor home: a pane starts on a clean screen. */
export const CLEAR_VISIBLE = '\u001B[2J\u001B[H';
/** Wait for a drag-resize to settle before reprinting scrollback at the new width. */
export const RESIZE_SETTLE_MS = 150;

/** Leading blank lines and trailing whitespace of a message carry nothing. */
function tidyMessage(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

function initialFeed(runtime: RuntimeApi, notices: string[] | undefined): StaticFeed {
  const feed = new StaticFeed();
  const warnings = runtime.store.getState().info.configWarnings ?? [];
  const seen = new Set<string>();
  // The CLI may pass the config warnings as notices too; show each line once.
  for (const text of [...warnings, ...(notices ?? [])]) {
    if (seen.has(text)) continue;
    seen.add(text);
    feed.addLocal(warnings.includes(text) ? 'warn' : 'info', text);
  }
  return feed;
}

export function App(props: AppProps) {
  const { runtime, sessions, onExit } = props;
  const store = runtime.store;
  const { columns, rows } = useTerminalSize();
  const { write } = useStdout();
  const [language, setLang] = useState<Language>(currentLanguage());
  // Commands and bindings are fixed for the life of the screen: the first render's props
  // are kept (a ref, not a memo, so nothing suggests they could change).
  const registryRef = useRef<CommandRegistry | undefined>(undefined);
  registryRef.current ??= new CommandRegistry([...builtinCommands(), ...(props.commands ?? [])]);
  const registry = registryRef.current;
  const bindingsRef = useRef<ReturnType<typeof defaultKeyBindings> | undefined>(undefined);
  bindingsRef.current ??= [
    fanoutKeyBinding,
    elicitationKeyBinding,
    ...(props.keyBindings ?? []),
    approvalKeyBinding,
    ...defaultKeyBindings(),
  ];
  const bindings = bindingsRef.current;
  const keys = props.keyTable ?? defaultKeyTable();
  const input = useInputController(registry, { runtime, sessions });
  const typeAhead = useTypeAhead();
  const { flash: chatFlash, show: flash, clear: clearFlash } = useFlash();
  const flashText = chatFlash?.text;
  const [pane, setPaneState] = useState<Pane | null>(null);
  // Which pane owns the keys is known the moment it opens, before the next render.
  const paneRef = useRef<Pane | null>(null);
  const paneKeys = useMemo(() => new PaneKeyBus(), []);
  const [pendingTurn, setPendingTurn] = useState(false);
  const [staticEpoch, setStaticEpoch] = useState(0);
  const feedRef = useRef<StaticFeed | null>(null);
  if (feedRef.current === null) feedRef.current = initialFeed(runtime, props.initialNotices);
  const feed = feedRef.current;
  const [, bumpFeed] = useReducer((n: number) => n + 1, 0);
  const exited = useRef(false);

  const info = useStore(store, (s) => s.info);
  const transcript = useStore(store, (s) => s.transcript);
  const activeRoot = useStore(store, (s) => s.activeRootRunId);
  // The ask the prompt shows (the oldest, or one chosen in /agents) and who has its keys.
  const {
    approval,
    approvals,
    view: approvalView,
    ui: approvalUi,
    scrollMax: approvalScrollMax,
    diffPage: approvalDiffPage,
  } = useApprovalView(store, () => paneRef.current?.holdsApprovalKeys === true);
  // The asking run as the user knows it: `main`, or a child's label (researcher#2), and
  // for a child its path in the tree (main › researcher#2 › researcher#3).
  const approvalAgent = useStore(store, (s) => {
    const run = approval ? s.runs.get(approval.runId) : undefined;
    if (!run) return undefined;
    return run.parentRunId === undefined ? run.alias : runLabel(s, run.id);
  });
  const approvalPath = useStore(store, (s) => (approval?.isChild ? runPath(s, approval.runId).join(' › ') : undefined));
  // An open /agents pane keeps the keys until Enter on the asking row.
  const approvalDeferred = pane?.holdsApprovalKeys === true && !(approvalView.armed && approvalView.focusId === approval?.id);
  // A large fan-out waiting for the operator ([delegation] confirm_fanout_over).
  const fanout = useStore(store, (s) => s.controls.fanouts?.[0]);
  const fanoutAgent = useStore(store, (s) => {
    const run = fanout ? s.runs.get(fanout.runId) : undefined;
    return run && (run.parentRunId === undefined ? run.alias : runLabel(s, run.id));
  });
  // An MCP server's form waiting for the operator, labelled with the asking run's path.
  const elicitations = useStore(store, (s) => s.controls.elicitations);
  const elicitation = elicitations?.[0];
  const elicitationPath = useStore(store, (s) =>
    elicitation && s.runs.get(elicitation.runId) ? runPath(s, elicitation.runId).join(' › ') : s.info.agentAlias,
  );
  // Validation messages add rows: the budget follows the form.
  const elicitForm = useSyncExternalStore(
    subscribeForms,
    () => (elicitation ? formOf(elicitation) : undefined),
    () => undefined,
  );
  const retryNotice = useStore(store, (s) => s.retryNotice);
  const quotaRows = useStore(store, (s) => quotaBannerHeight(s.quotaPauses));

  const turnRunning = activeRoot !== undefined || pendingTurn;
  const turnRunningRef = useRef(turnRunning);
  turnRunningRef.current = turnRunning;
  // Synchronous on purpose: a finished reply must leave the live region in the same frame
  // it lands in scrollback, or one frame would show it twice (and too tall).
  // While a turn runs, at most one print to scrollback per FEED_BATCH_MS (each is a frame
  // outside the throttle); what settled meanwhile stays live and goes in the next batch.
  const entries = feed.sync(transcript, turnRunning, Date.now(), FEED_BATCH_MS);
  const feedHeldUntil = feed.heldUntil;
  useEffect(() => {
    if (feedHeldUntil === undefined) return;
    // A few ms past it: a timer may fire a little before Date.now() reads the time it was set for.
    const timer = setTimeout(bumpFeed, Math.max(0, feedHeldUntil - Date.now()) + 5);
    return () => clearTimeout(timer);
  }, [feedHeldUntil]);
  // The same array while the turn's items do not change, so the memoized LiveTurn (and
  // its cards) skips the re-render a key press causes.
  const liveFrom = feed.cursor;
  const live = useMemo(() => transcript.slice(liveFrom), [transcript, liveFrom]);

  const print = useCallback(
    (text: string, level: NoticeLevel = 'info') => {
      feed.addLocal(level, text);
      bumpFeed();
    },
    [feed],
  );

  // The frame left on the terminal after quitting must reflect the quit (no "press Ctrl+C
  // again" flash). `quitting` is an external store: React renders its change in a
  // microtask queued at the change, so the onExit queued after it unmounts a screen that
  // already shows it — within the same turn of the event loop.
  const { value: quitting, set: setQuitting } = useRefStore(false);
  const onExitRef = useRef(onExit);
  onExitRef.current = onExit;
  const exit = useCallback(() => {
    if (exited.current) return;
    exited.current = true;
    setQuitting(true);
    queueMicrotask(() => onExitRef.current());
  }, [setQuitting]);

  // Quitting with background tasks running asks first (ui/quit/QuitQuestion.tsx); from the
  // question itself, a quit key quits anyway.
  const requestExitRef = useRef<() => void>(exit);
  const requestExit = useCallback(() => requestExitRef.current(), []);

  const reprintScrollback = useCallback(() => {
    write(CLEAR_SCREEN);
    setStaticEpoch((e) => e + 1);
  }, [write]);

  // A pane is taller than what it replaces: opening one clears the screen under it (no chat
  // lines left above its header), and closing one reprints the conversation, so the last
  // screenful of chat is back where it was instead of a nearly blank screen.
  const setPane = useCallback(
    (next: Pane | null) => {
      const prev = paneRef.current;
      paneRef.current = next;
      paneKeys.reset();
      if (!prev && next) write(CLEAR_VISIBLE);
      else if (prev && !next) reprintScrollback();
      setPaneState(next);
    },
    [paneKeys, write, reprintScrollback],
  );

  requestExitRef.current = () => {
    if (exited.current) return;
    if (paneRef.current?.id === QUIT_PANE_ID || runningBackgroundTasks(store.getState()).length === 0) return exit();
    clearFlash();
    setPane(quitQuestionPane(runtime, keys, exit));
  };

  const clearScreen = useCallback(() => {
    feed.reset();
    reprintScrollback();
  }, [feed, reprintScrollback]);

  // Lines already in scrollback were wrapped for the old width: reprint them at the new one.
  const printedWidth = useRef(columns);
  useEffect(() => {
    if (columns === printedWidth.current) return;
    const timer = setTimeout(() => {
      printedWidth.current = columns;
      reprintScrollback();
    }, RESIZE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [columns, reprintScrollback]);

  const changeLanguage = useCallback((lang: Language) => {
    setI18nLanguage(lang);
    setLang(lang);
  }, []);
  const saveLanguage = props.saveLanguage;

  const commandList = useMemo(() => registry.list(), [registry]);
  const keyHelp = useMemo(() => helpLines(bindings, keys), [bindings, keys]);
  // What keys and commands may both do, given to each of them.
  const uiContext: UiContext = {
    runtime,
    exit: requestExit,
    openPane: setPane,
    closePane: () => setPane(null),
    isTurnRunning: () => turnRunningRef.current,
  };
  const commandContext: CommandContext = {
    ...uiContext,
    print,
    sessions,
    setLanguage: changeLanguage,
    saveLanguage,
    clearScreen,
    commands: commandList,
    keyBindings: keyHelp,
    keyTable: keys,
    columns,
  };

  // Read from the store, not from this render: keys can arrive before the next one.
  // A waiting fan-out confirmation holds the keyboard the same way.
  const approvalPendingNow = useCallback(
    () =>
      store.getState().controls.approvals.length > 0 ||
      (store.getState().controls.fanouts?.length ?? 0) > 0 ||
      (store.getState().controls.elicitations?.length ?? 0) > 0,
    [store],
  );

  const onSubmit = () => {
    if (approvalPendingNow()) return;
    const value = normalizeNewlines(input.read());
    if (!value.trim()) return;
    if (isSlashLine(value)) {
      input.commit(value.trim());
      clearFlash();
      void runSlashLine(value, registry, commandContext);
      return;
    }
    input.commit(value);
    clearFlash();
    // Type-ahead: sent as the next turn when this one ends.
    if (turnRunningRef.current) typeAhead.queue(value);
    else startMessage(value);
  };

  const startMessage = (value: string) => {
    const text = tidyMessage(unescapeSlash(value));
    setPendingTurn(true);
    turnRunningRef.current = true;
    runtime
      .startTurn(text)
      .catch((err: unknown) => print(t('ui:errors.turnFailed', { message: err instanceof Error ? err.message : String(err) }), 'error'))
      .finally(() => setPendingTurn(false));
  };

  // The turn ended: the queued message is the next one, sent once (take() empties it).
  useEffect(() => {
    if (turnRunning || approvalPendingNow()) return;
    const queued = typeAhead.take();
    if (queued !== undefined) startMessage(queued);
  });

  const submitRef = useRef(onSubmit);
  submitRef.current = onSubmit;
  const submit = useCallback(() => submitRef.current(), []);

  useChatKeys(
    bindings,
    {
      ...uiContext,
      keys,
      approvalPending: approval !== undefined,
      paneOpen: pane !== null,
      // Getters: a burst of keys must see what the keys before it did, not this render.
      get inputValue() {
        return input.read();
      },
      get suggestionsVisible() {
        return input.hasSuggestions() && paneRef.current === null && !approvalPendingNow();
      },
      input,
      approvalUi,
      flash,
      clearFlash,
      openPaneId: () => paneRef.current?.id,
      redraw: reprintScrollback,
      now: Date.now,
      typeAhead,
    },
    {
      isOpen: () => paneRef.current !== null,
      deliver: (event) => paneKeys.deliver(event),
    },
    {
      key: (k) => editorKey(k, keys, input, submit),
      text: (text) => input.insert(text),
    },
    approvalPendingNow,
  );

  // Row budget, bottom up: status bar, flash line, input (or pane), approval, then the
  // live turn gets what is left. One row stays free for the cursor line Ink leaves below.
  const width = Math.max(10, columns);
  const statusRows = statusBarHeight(retryNotice, width);
  const flashRows = flashText ? 1 : 0;
  const approvalArgRows = Math.max(1, Math.min(12, Math.floor(rows / 3)));
  // A diff gets a taller window (up to half the screen), sized so the prompt's other rows,
  // one input row, one live row and the status bar stay on screen; its height does not
  // change as it scrolls. The prompt with a one-row window, less that row, is the rest.
  const approvalAround = approval ? approvalPromptHeight(approval, width, approvalArgRows, 0, approvalPath, false, 1) - 1 : 0;
  const approvalSpare = rows - (1 + approvalAround) - statusRows - quotaRows - flashRows - LIVE_TURN_MARGIN - 4;
  const approvalDiffRows = Math.max(1, Math.min(Math.floor(rows / 2), approvalSpare));
  const approvalRows = approval
    ? 1 + approvalPromptHeight(approval, width, approvalArgRows, approvalView.scroll, approvalPath, approvalDeferred, approvalDiffRows)
    : 0;
  approvalScrollMax.current = approval ? approvalMaxScroll(approval, width, approvalArgRows, approvalDiffRows) : 0;
  approvalDiffPage.current = approval && approvalDiffScrollable(approval, width, approvalDiffRows) ? Math.max(1, approvalDiffRows - 1) : 0;
  const inputMaxLines = Math.max(1, Math.min(6, Math.floor(rows / 4)));
  const fanoutList = Math.max(1, Math.min(10, Math.floor(rows / 3)));
  const fanoutRows = fanout ? 1 + fanoutPromptHeight(fanout, fanoutList) : 0;
  const elicitMessageRows = Math.max(1, Math.min(6, Math.floor(rows / 4)));
  const elicitRows = elicitation
    ? 1 + elicitationPromptHeight(elicitation, elicitForm ?? formOf(elicitation), width, elicitMessageRows)
    : 0;
  const fixedRows = statusRows + quotaRows + flashRows + approvalRows + fanoutRows + elicitRows + LIVE_TURN_MARGIN + 1;
  const paneRows = Math.max(3, rows - fixedRows - 1 - Math.min(4, live.length > 0 ? 4 : 0));
  const queuedRows = !pane && typeAhead.queued !== undefined ? 1 : 0;
  const inputRows = pane ? 1 + paneRows : 1 + queuedRows + inputLineHeight(input, width, inputMaxLines);
  const liveRows = Math.max(1, rows - fixedRows - inputRows);

  return (
    <RuntimeStoreContext.Provider value={props.runtime.store}>
      <KeyTableContext.Provider value={keys}>
        <Static key={staticEpoch} items={entries as FeedEntry[]}>
          {(entry) => <FeedEntryView key={entry.key} entry={entry} width={width} showReasoning={info.showReasoning} />}
        </Static>
        <Box flexDirection="column" width={width}>
          <LiveTurn items={live} width={width} maxRows={liveRows} turnRunning={turnRunning} showReasoning={info.showReasoning} />
          {approval && (
            <Box marginTop={1}>
              <ApprovalPrompt
                runtime={runtime}
                approval={approval}
                agent={approvalAgent ?? info.agentAlias}
                path={approvalPath}
                position={{ n: approvals.indexOf(approval) + 1, of: approvals.length }}
                deferred={approvalDeferred}
                width={width}
                maxArgLines={approvalArgRows}
                maxDiffRows={approvalDiffRows}
                diffFocused={approvalView.diffFocus === true}
                selected={approvalView.index}
                scroll={approvalView.scroll}
                keys={keys}
              />
            </Box>
          )}
          {fanout && (
            <Box marginTop={1}>
              <FanoutPrompt fanout={fanout} agent={fanoutAgent ?? info.agentAlias} width={width} maxList={fanoutList} keys={keys} />
            </Box>
          )}
          {elicitation && (
            <Box marginTop={1}>
              <ElicitationPrompt
                elicitation={elicitation}
                path={elicitationPath}
                position={{ n: 1, of: elicitations?.length ?? 1 }}
                width={width}
                maxMessageLines={elicitMessageRows}
              />
            </Box>
          )}
          <Box marginTop={1} flexDirection="column">
            {pane ? (
              <PaneKeysContext.Provider value={paneKeys}>
                {pane.render({ runtime, width, maxRows: paneRows, close: () => setPane(null), focusApproval: approvalUi.focus })}
              </PaneKeysContext.Provider>
            ) : (
              <>
                {typeAhead.queued !== undefined && <QueuedLine text={typeAhead.queued} width={width} />}
                <InputLine
                  controller={input}
                  focus={approval === undefined && fanout === undefined && elicitation === undefined}
                  width={width}
                  maxLines={inputMaxLines}
                  language={language}
                />
              </>
            )}
          </Box>
          {flashText && !quitting && (
            <Text color="yellow" wrap="truncate-end">
              {flashText}
            </Text>
          )}
          <QuotaBanner store={store} width={width} />
          <StatusBar runtime={runtime} width={width} turnRunning={turnRunning} />
        </Box>
      </KeyTableContext.Provider>
    </RuntimeStoreContext.Provider>
  );
}

/** The type-ahead message above the input: its first line, and how many more it has. */
function QueuedLine({ text, width }: { text: string; width: number }) {
  const lines = text.split('\n');
  const more = lines.length > 1 ? ` ${t('ui:input.queuedMore', { count: lines.length - 1 })}` : '';
  const first = sanitizeLine(lines[0]);
  return (
    <Text color="cyan" dimColor wrap="truncate-end">
      {truncate(t('ui:input.queued', { text: `${truncate(first, Math.max(8, Math.floor(width / 3)))}${more}` }), width)}
    </Text>
  );
}
