// The chat's spawn_subagent / delegate card: two rows, bound to its child runs while they
// live. It reads only its own runs from the store, at most ~10 times a second.
import React, { useContext } from 'react';
import type { RuntimeState } from '../../model/state.js';
import type { Run } from '../../model/run.js';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { useTicker } from '../hooks/useTicker.js';
import { collapsedLines } from './cardLines.js';
import { LinesView } from '../components/LineView.js';
import { boundRuns, callUsage, isAlive, sameRuns, sameUsage, type CallUsage } from './live.js';
import type { CardModel } from './model.js';
import { RuntimeStoreContext } from '../runtimeStoreContext.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';

/** Elapsed times move once a second while a child lives, even when the store is quiet. */
const CLOCK_MS = 1000;
const NO_RUNS: readonly Run[] = [];
const NO_USAGE: CallUsage = { tokensIn: 0, tokensOut: 0, costUsd: 0, descendants: 0 };

export interface TranscriptCardProps {
  item: ToolTranscriptItem;
  model: CardModel;
  width: number;
  frame: number;
}

export function TranscriptCard({ item, model, width, frame }: TranscriptCardProps) {
  const live = useContext(RuntimeStoreContext);
  const store = item.restored ? undefined : live;
  const [runs] = useThrottledStore<RuntimeState, readonly Run[]>(store, (s) => boundRuns(s, item), { equal: sameRuns, fallback: NO_RUNS });
  const [usage] = useThrottledStore<RuntimeState, CallUsage>(store, (s) => callUsage(s, boundRuns(s, item)), {
    equal: sameUsage,
    fallback: NO_USAGE,
  });
  useTicker(runs.some(isAlive), CLOCK_MS);
  const lines = collapsedLines({ item, model, runs, width, frame, now: Date.now(), usage });
  return <LinesView lines={lines} width={width} />;
}

/** The card as scrollback prints it, once: its child runs as they are now, nothing to
 * subscribe to. */
export function PrintedTranscriptCard({ item, model, width }: Omit<TranscriptCardProps, 'frame'>) {
  const live = useContext(RuntimeStoreContext);
  const store = item.restored ? undefined : live;
  const runs = store ? boundRuns(store.getState(), item) : NO_RUNS;
  const usage = store ? callUsage(store.getState(), runs) : NO_USAGE;
  return <LinesView lines={collapsedLines({ item, model, runs, width, frame: 0, now: Date.now(), usage })} width={width} />;
}
