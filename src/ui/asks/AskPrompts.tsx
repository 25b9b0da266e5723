// The asks waiting on the operator, drawn above the input in the rows the chat layout
// gave them: the approval prompt, the fan-out confirmation and the MCP server's form.
import React from 'react';
import { Box } from 'ink';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { ApprovalPrompt } from '../approval/ApprovalPrompt.js';
import { ElicitationPrompt } from '../elicitation/ElicitationPrompt.js';
import { FanoutPrompt } from '../fanout/FanoutPrompt.js';
import type { KeyTable } from '../keys/keyTable.js';
import type { ChatLayout } from '../chatLayout.js';
import type { PendingAsks } from './usePendingAsks.js';

export interface AskPromptsProps {
  runtime: RuntimeApi;
  asks: PendingAsks;
  layout: Pick<ChatLayout, 'width' | 'approvalArgRows' | 'approvalDiffRows' | 'fanoutList' | 'elicitMessageRows'>;
  keys: KeyTable;
  /** The agent the user talks to: the asking run's name when the store has none. */
  agentAlias: string;
}

export function AskPrompts({ runtime, asks, layout, keys, agentAlias }: AskPromptsProps) {
  const { approval, approvals, approvalView, fanout, elicitation } = asks;
  const { width } = layout;
  return (
    <>
      {approval && (
        <Box marginTop={1}>
          <ApprovalPrompt
            runtime={runtime}
            approval={approval}
            agent={asks.approvalAgent ?? agentAlias}
            path={asks.approvalPath}
            position={{ n: approvals.indexOf(approval) + 1, of: approvals.length }}
            deferred={asks.approvalDeferred}
            width={width}
            maxArgLines={layout.approvalArgRows}
            maxDiffRows={layout.approvalDiffRows}
            diffFocused={approvalView.diffFocus === true}
            selected={approvalView.index}
            scroll={approvalView.scroll}
            keys={keys}
          />
        </Box>
      )}
      {fanout && (
        <Box marginTop={1}>
          <FanoutPrompt fanout={fanout} agent={asks.fanoutAgent ?? agentAlias} width={width} maxList={layout.fanoutList} keys={keys} />
        </Box>
      )}
      {elicitation && (
        <Box marginTop={1}>
          <ElicitationPrompt
            elicitation={elicitation}
            path={asks.elicitationPath}
            position={{ n: 1, of: asks.elicitations?.length ?? 1 }}
            width={width}
            maxMessageLines={layout.elicitMessageRows}
          />
        </Box>
      )}
    </>
  );
}
