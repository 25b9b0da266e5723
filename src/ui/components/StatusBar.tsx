// One line at the bottom: turn activity (spinner, elapsed) on the left, then agent,
// provider/model, session tokens and estimated cost. A retry notice gets its own line; a
// failing session save leads the line until a save works again.
import React, { memo } from 'react';
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import type { RuntimeInfo, RuntimeState } from '../../model/state.js';
import { t } from '../../i18n/index.js';
import { useTicker } from '../hooks/useTicker.js';
import { FRAME_MS, useThrottledStore } from '../hooks/useThrottledStore.js';
import { formatCost, formatElapsed, formatTokens } from '../text/format.js';
import { truncate, wrapText } from '../text/width.js';
import { SPINNER_INTERVAL_MS, spinnerFrame } from '../theme.js';

export interface StatusBarProps {
  runtime: RuntimeApi;
  width: number;
  /** True from Enter until the turn's promise settles, even before the runtime has a run. */
  turnRunning: boolean;
  /** The UI language: /lang redraws the line in the new one (it is memoized). */
  language?: string;
}

/** A retry notice wraps (never cut, down to narrow terminals) up to this many rows. */
const RETRY_MAX_ROWS = 3;

function retryRows(retryNotice: string, width: number): string[] {
  const rows = wrapText(t('ui:status.retry', { text: retryNotice }), Math.max(1, width));
  return rows.length <= RETRY_MAX_ROWS
    ? rows
    : [...rows.slice(0, RETRY_MAX_ROWS - 1), truncate(rows.slice(RETRY_MAX_ROWS - 1).join(' '), width)];
}

/** Rows the status bar takes; `width` decides how many rows a retry notice wraps to. */
export function statusBarHeight(retryNotice: string | undefined, width = Number.POSITIVE_INFINITY): number {
  return retryNotice ? 1 + retryRows(retryNotice, width).length : 1;
}

export function providerText({ providerLabel, autoDetectedFrom }: RuntimeInfo): string {
  return autoDetectedFrom ? t('ui:status.autoDetected', { label: providerLabel, env: autoDetectedFrom }) : providerLabel;
}

const selectTotals = (s: RuntimeState) => s.totals;
const TOTALS_OPTIONS = { intervalMs: FRAME_MS };

/** The store slices the line draws, each its own selector so the line redraws only when
 * one of them changes. */
function useStatusSlices(store: RuntimeApi['store']) {
  const info = useStore(store, (s) => s.info);
  // Every child's every step adds to the totals: taken once a frame, not per step.
  const [totals] = useThrottledStore(store, selectTotals, TOTALS_OPTIONS);
  const retryNotice = useStore(store, (s) => s.retryNotice);
  const saveFailing = useStore(store, (s) => s.saveError !== undefined);
  const mcpFailed = useStore(store, (s) => s.mcpServers?.filter((m) => m.status === 'failed').length ?? 0);
  const mcpSignIn = useStore(store, (s) => s.mcpServers?.filter((m) => m.status === 'needs-sign-in').length ?? 0);
  const startedAt = useStore(store, (s) => {
    const run = s.activeRootRunId ? s.runs.get(s.activeRootRunId) : undefined;
    return run ? (run.startedAt ?? run.createdAt) : undefined;
  });
  const waiting = useStore(store, (s) => s.controls.approvals.length > 0);
  // The queue, once it is more than the root's one ask: children's asks, or several.
  const asks = useStore(store, (s) => {
    const list = s.controls.approvals;
    return list.length > 1 || list.some((a) => a.isChild) ? list.length : 0;
  });
  return { info, totals, retryNotice, saveFailing, mcpFailed, mcpSignIn, startedAt, waiting, asks };
}

/** A part that leads the line (an alert, the asks count), with the separator after it. */
function lead(text: string, color: string, sep: React.ReactNode, bold?: boolean) {
  return (
    <Text>
      <Text color={color} bold={bold}>
        {text}
      </Text>
      {sep}
    </Text>
  );
}

/** The turn's spinner, what it is doing and for how long, and (unless an approval waits,
 * when Esc answers it instead) the Esc hint. */
function turnActivity(frame: number, waiting: boolean, elapsed: number, sep: React.ReactNode) {
  return (
    <Text>
      <Text color="cyan">{spinnerFrame(frame)} </Text>
      <Text color={waiting ? 'yellow' : 'cyan'}>{waiting ? t('ui:status.waitingApproval') : t('ui:status.working')}</Text>
      <Text>{` ${formatElapsed(elapsed)}`}</Text>
      {sep}
      {!waiting && (
        <>
          <Text dimColor>{t('ui:status.escHint')}</Text>
          {sep}
        </>
      )}
    </Text>
  );
}

// Memoized: the App re-renders on every streamed frame of text (20 a second), and this line
// (half a dozen translated strings) changes only with its own selectors, the spinner's
// tick and the language. Drawn along with every frame it took ~5 % of arbor's CPU while a
// reply streamed (bench/streaming's profile).
export const StatusBar = memo(function StatusBar({ runtime, width, turnRunning }: StatusBarProps) {
  const { info, totals, retryNotice, saveFailing, mcpFailed, mcpSignIn, startedAt, waiting, asks } = useStatusSlices(runtime.store);
  const frame = useTicker(turnRunning, SPINNER_INTERVAL_MS);
  // The first frame of a turn may come before the runtime has stamped a start time.
  const elapsed = startedAt !== undefined ? Date.now() - startedAt : 0;
  const sep = <Text dimColor> · </Text>;
  return (
    <Box flexDirection="column" width={width}>
      {retryNotice && <Text color="yellow">{retryRows(retryNotice, width).join('\n')}</Text>}
      <Text wrap="truncate-end">
        {/* First, so a narrow terminal cuts the totals rather than this. */}
        {saveFailing && lead(t('ui:status.saveFailed'), 'red', sep)}
        {mcpFailed > 0 && lead(t('ui:status.mcpFailed', { count: mcpFailed }), 'red', sep)}
        {info.projectTrust === 'untrusted' && lead(t('trust:status.untrusted'), 'yellow', sep)}
        {mcpSignIn > 0 && lead(t('ui:status.mcpSignIn', { count: mcpSignIn }), 'yellow', sep)}
        {turnRunning && turnActivity(frame, waiting, elapsed, sep)}
        {asks > 0 && lead(t('ui:status.asks', { count: asks }), 'yellow', sep, true)}
        <Text bold>{info.agentAlias}</Text>
        {sep}
        <Text>{providerText(info)}</Text>
        {sep}
        <Text dimColor>{t('ui:status.tokens', { in: formatTokens(totals.tokensIn), out: formatTokens(totals.tokensOut) })}</Text>
        {sep}
        <Text dimColor>{t('ui:status.cost', { cost: formatCost(totals.costUsd) })}</Text>
      </Text>
    </Box>
  );
});
