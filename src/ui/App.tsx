// The chat screen. Finished transcript items go to <Static> (printed once, kept in
// scrollback); the live region below holds the turn in flight, a pending approval, the
// input line (or a pane) and the status bar, and is budgeted to stay shorter than the
// terminal. The UI acts only through RuntimeApi and reads the store through selectors.
//
// Enter while a turn runs sends nothing: the text stays in the input and a hint says to
// press Enter again once the turn ends (or Esc to interrupt it). Slash commands still run.
import React, { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Box, Static, Text } from 'ink';
import type { RuntimeApi } from '../runtime/runtimeApi.js';
import { currentLanguage, setLanguage as setI18nLanguage, type Language } from '../i18n/index.js';
import { builtinCommands } from './commands/index.js';
import { CommandRegistry, type CommandContext, type SessionsSource, type SlashCommand } from './commands/registry.js';
import { fanoutKeyBinding } from './fanout/keys.js';
import { elicitationKeyBinding } from './elicitation/keys.js';
import { FeedEntryView } from './components/FeedEntryView.js';
import { InputLine, inputLineHeight } from './components/InputLine.js';
import { LiveTurn } from './components/LiveTurn.js';
import { QueuedLine } from './components/QueuedLine.js';
import { StatusBar } from './components/StatusBar.js';
import { QuotaBanner } from './components/QuotaBanner.js';
import { AskPrompts } from './asks/AskPrompts.js';
import { usePendingAsks } from './asks/usePendingAsks.js';
import { chatLayout } from './chatLayout.js';
import { useChatKeys } from './hooks/useChatKeys.js';
import { useChatScreen } from './hooks/useChatScreen.js';
import type { UiContext } from './uiContext.js';
import { useFlash } from './hooks/useFlash.js';
import { useInputController } from './hooks/useInputController.js';
import { useChatSubmit } from './hooks/useChatSubmit.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';
import { useTypeAhead } from './hooks/useTypeAhead.js';
import { FRAME_MS, useThrottledStore } from './hooks/useThrottledStore.js';
import { editorKey } from './input/editorKeys.js';
import { defaultKeyBindings, helpLines, type KeyBinding } from './keys/bindings.js';
import { defaultKeyTable, KeyTableContext, type KeyTable } from './keys/keyTable.js';
import { RuntimeStoreContext } from './runtimeStoreContext.js';
import { approvalKeyBinding } from './approval/keys.js';
import { useQuit } from './quit/useQuit.js';
import { PaneKeysContext } from './panes/paneKeys.js';
import { FEED_BATCH_MS, StaticFeed, type FeedEntry } from './state/feed.js';
import { sameChatSlice, selectChatSlice, urgentChatChange } from './state/chatSlice.js';
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

const CHAT_SLICE_OPTIONS = { equal: sameChatSlice, urgent: urgentChatChange, intervalMs: FRAME_MS };

export function App(props: AppProps) {
  const { runtime, sessions, onExit } = props;
  const store = runtime.store;
  const { columns, rows } = useTerminalSize();
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
  const [pendingTurn, setPendingTurn] = useState(false);
  const feedRef = useRef<StaticFeed | null>(null);
  if (feedRef.current === null) feedRef.current = initialFeed(runtime, props.initialNotices);
  const feed = feedRef.current;
  const { pane, paneRef, paneKeys, setPane, staticEpoch, reprintScrollback, clearScreen } = useChatScreen(feed, columns);
  const [, bumpFeed] = useReducer((n: number) => n + 1, 0);

  // The transcript, the active root and the rest of what the screen reads, in one slice:
  // a running turn's transcript changes are taken once a frame (ui/state/chatSlice.ts).
  const [{ info, transcript, activeRoot, retryNotice, quotaRows }] = useThrottledStore(store, selectChatSlice, CHAT_SLICE_OPTIONS);
  // The approval, fan-out and MCP form waiting on the operator (ui/asks/).
  const asks = usePendingAsks(store, paneRef, pane);
  const { approval, approvalUi, fanout, elicitation } = asks;

  const turnRunning = activeRoot !== undefined || pendingTurn;
  const turnRunningRef = useRef(turnRunning);
  turnRunningRef.current = turnRunning;
  // Synchronous on purpose: a finished reply must leave the live region in the same frame
  // it lands in scrollback, or one frame would show it twice (and too tall).
  // While a turn runs, at most one print to scrollback per FEED_BATCH_MS (each is a frame
  // outside the throttle); what settled meanwhile stays live and goes in the next batch.
  // Once the root run has ended nothing is held: the last reply lands in scrollback in the
  // frame the turn ends in, not a batch later.
  const batchMs = activeRoot !== undefined ? FEED_BATCH_MS : 0;
  // While a pane covers the chat during a turn, nothing goes to scrollback: each print is a
  // whole frame drawn at once (a 1,000-child fan-out's cards were most of the /agents
  // pane's drawing), its lines land above a pane that opened on a clean screen, and closing
  // the pane reprints the scrollback with everything settled meanwhile. The items stay in
  // the live region, which shows the newest that fit. A turn that ends commits as before.
  const feedHeld = pane !== null && activeRoot !== undefined;
  const entries = feedHeld ? feed.entries : feed.sync(transcript, turnRunning, Date.now(), batchMs);
  const feedHeldUntil = feedHeld ? undefined : feed.heldUntil;
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

  const { quitting, requestExit } = useQuit({ runtime, onExit, paneRef, setPane, clearFlash, keys });

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

  const { submit, askPendingNow } = useChatSubmit({
    runtime,
    input,
    registry,
    commandContext,
    typeAhead,
    clearFlash,
    print,
    turnRunning,
    turnRunningRef,
    setPendingTurn,
  });

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
        return input.hasSuggestions() && paneRef.current === null && !askPendingNow();
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
    askPendingNow,
  );

  const layout = chatLayout({
    columns,
    rows,
    retryNotice,
    quotaRows,
    flashShown: Boolean(flashText),
    asks,
    liveCount: live.length,
    paneOpen: pane !== null,
    queued: typeAhead.queued !== undefined,
    inputHeight: (width, maxLines) => inputLineHeight(input, width, maxLines),
  });
  asks.approvalScrollMax.current = layout.approvalScrollMax;
  asks.approvalDiffPage.current = layout.approvalDiffPage;
  const { width } = layout;
  // The same element until something is printed (or reprinted): Ink draws any commit that
  // touches the Static box at once, outside its frame throttle, so a Static re-rendered with
  // the App made every App render (one per store update in a fan-out) a full frame.
  const showReasoning = info.showReasoning;
  const scrollback = useMemo(
    () => (
      <Static key={staticEpoch} items={entries as FeedEntry[]}>
        {(entry) => <FeedEntryView key={entry.key} entry={entry} width={width} showReasoning={showReasoning} />}
      </Static>
    ),
    [staticEpoch, entries, width, showReasoning],
  );

  return (
    <RuntimeStoreContext.Provider value={props.runtime.store}>
      <KeyTableContext.Provider value={keys}>
        {scrollback}
        <Box flexDirection="column" width={width}>
          <LiveTurn items={live} width={width} maxRows={layout.liveRows} turnRunning={turnRunning} showReasoning={info.showReasoning} />
          <AskPrompts runtime={runtime} asks={asks} layout={layout} keys={keys} agentAlias={info.agentAlias} />
          <Box marginTop={1} flexDirection="column">
            {pane ? (
              <PaneKeysContext.Provider value={paneKeys}>
                {pane.render({ runtime, width, maxRows: layout.paneRows, close: () => setPane(null), focusApproval: approvalUi.focus })}
              </PaneKeysContext.Provider>
            ) : (
              <>
                {typeAhead.queued !== undefined && <QueuedLine text={typeAhead.queued} width={width} />}
                <InputLine
                  controller={input}
                  focus={approval === undefined && fanout === undefined && elicitation === undefined}
                  width={width}
                  maxLines={layout.inputMaxLines}
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
          <StatusBar runtime={runtime} width={width} turnRunning={turnRunning} language={language} />
        </Box>
      </KeyTableContext.Provider>
    </RuntimeStoreContext.Provider>
  );
}
