// One line per provider whose rate or quota limit holds runs (runtime/quotaPause.ts): the
// provider, how many runs wait, and when they resume, on the local clock and as a countdown.
import React from 'react';
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { t } from '../../i18n/index.js';
import type { RuntimeStore } from '../../runtime/store.js';
import { clockTime, waitText, type QuotaPause } from '../../model/quota.js';
import { useTicker } from '../hooks/useTicker.js';

/** Providers shown before the rest are summed up in one line. */
const MAX_SHOWN = 2;

const EMPTY: QuotaPause[] = [];

export function quotaBannerHeight(pauses: readonly QuotaPause[] | undefined): number {
  const n = pauses?.length ?? 0;
  return n === 0 ? 0 : Math.min(n, MAX_SHOWN) + (n > MAX_SHOWN ? 1 : 0);
}

export function quotaLine(p: QuotaPause, now: number): string {
  const args = {
    provider: p.provider,
    label: p.label,
    count: p.runIds.length,
    clock: clockTime(p.resetAt),
    wait: waitText(p.resetAt - now),
  };
  if (p.resetAt <= now) return t('ui:quota.resuming', args);
  if (!p.resetKnown) return t('ui:quota.probe', args);
  return t(p.reason === 'exhausted' ? 'ui:quota.exhausted' : 'ui:quota.rateLimit', args);
}

export function QuotaBanner({ store, width }: { store: RuntimeStore; width: number }) {
  const pauses = useStore(store, (s) => s.quotaPauses ?? EMPTY);
  // The countdown moves once a second while a banner shows.
  useTicker(pauses.length > 0, 1000);
  if (pauses.length === 0) return null;
  const now = Date.now();
  return (
    <Box flexDirection="column" width={width}>
      {pauses.slice(0, MAX_SHOWN).map((p) => (
        <Text key={p.provider} color="yellow" wrap="truncate-end">
          {quotaLine(p, now)}
          <Text dimColor>{` · ${t('ui:quota.hint')}`}</Text>
        </Text>
      ))}
      {pauses.length > MAX_SHOWN && (
        <Text color="yellow" wrap="truncate-end">
          {t('ui:quota.more', { count: pauses.length - MAX_SHOWN })}
        </Text>
      )}
    </Box>
  );
}
