// The fan-out confirmation at the head of the queue: who asks, the planned children (agent,
// model, estimated prompt tokens and cost, task), the total estimate, how many will start
// at the count chosen, and the keys. Children past the count are struck through in red.
import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { PendingFanout, PlannedChild } from '../../model/controls.js';
import { declinedCalls, startedFor } from '../../model/fanoutPlan.js';
import { t } from '../../i18n/index.js';
import type { KeyTable } from '../keys/keyTable.js';
import { formatCost, formatTokens } from '../text/format.js';
import { truncate } from '../text/width.js';
import { fanoutCount, subscribeFanoutCounts } from './countState.js';

export interface FanoutPromptProps {
  fanout: PendingFanout;
  /** The asking run: `main`, or a child's label. */
  agent: string;
  width: number;
  /** Most rows the list of children may take. */
  maxList: number;
  keys: KeyTable;
}

/** Border (2), title, estimate, count line, key hint. */
const CHROME_ROWS = 6;

export function fanoutPromptHeight(fanout: PendingFanout, maxList: number): number {
  const n = fanout.children.length;
  const shown = n <= maxList ? n : Math.max(1, maxList - 1);
  return CHROME_ROWS + shown + (shown < n ? 1 : 0);
}

const cost = (usd: number | undefined) => (usd === undefined ? t('ui:fanout.unknown') : formatCost(usd));

function childLine(c: PlannedChild, i: number, width: number): string {
  const head = t('ui:fanout.child', {
    n: i + 1,
    agent: c.agent,
    model: c.model,
    tokens: formatTokens(c.inputTokens),
    cost: cost(c.costUsd),
  });
  return truncate(`${head}  ${c.task.replace(/\s+/g, ' ').trim()}`, Math.max(8, width - 4));
}

export function FanoutPrompt({ fanout, agent, width, maxList, keys }: FanoutPromptProps) {
  const total = fanout.children.length;
  const count = useSyncExternalStore(
    subscribeFanoutCounts,
    () => fanoutCount(fanout.id, total),
    () => fanoutCount(fanout.id, total),
  );
  const declined = declinedCalls(fanout.children, count);
  const started = startedFor(fanout.children, count);
  const shown = total <= maxList ? total : Math.max(1, maxList - 1);
  const estimate =
    fanout.estimatedUsd === undefined
      ? t('ui:fanout.estimateUnknown')
      : t('ui:fanout.estimate', { cost: formatCost(fanout.estimatedUsd) }) +
        (fanout.unpriced > 0 ? t('ui:fanout.unpriced', { count: fanout.unpriced }) : '');
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" paddingX={1} width={width}>
      <Text wrap="truncate-end">
        <Text color="magenta" bold>{`${t('ui:fanout.title')}: `}</Text>
        <Text>{t('ui:fanout.request', { agent, count: total, limit: fanout.limit })}</Text>
      </Text>
      {fanout.children.slice(0, shown).map((c, i) => {
        const off = declined.has(c.callId);
        return (
          <Text key={`${c.callId}-${i}`} wrap="truncate-end" color={off ? 'red' : undefined} dimColor={off} strikethrough={off}>
            {childLine(c, i, width)}
          </Text>
        );
      })}
      {shown < total && <Text dimColor>{t('ui:fanout.more', { count: total - shown })}</Text>}
      <Text dimColor wrap="truncate-end">
        {estimate}
      </Text>
      <Text wrap="truncate-end">
        <Text bold color={started === 0 ? 'red' : 'green'}>
          {t('ui:fanout.count', { started, count: total })}
        </Text>
        {started !== Math.min(count, total) && <Text dimColor>{` ${t('ui:fanout.wholeCalls')}`}</Text>}
      </Text>
      <Text dimColor wrap="truncate-end">
        {t('ui:fanout.hint', {
          approve: keys.label('fanout.approve'),
          all: keys.label('fanout.all'),
          change: keys.labels(['fanout.less', 'fanout.more']),
          deny: keys.label('fanout.deny'),
        })}
      </Text>
    </Box>
  );
}
