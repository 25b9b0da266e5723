// Reasoning in the transcript viewer and in a child's transcript. The viewer: collapsed, a
// reply shows the "thought · N tokens" head and Enter (expand) shows the whole reasoning;
// with show_reasoning = "expanded" the text is there from the start. A child's transcript
// in the agents pane shows the whole reasoning unless it is hidden.
import type { TranscriptItem } from '../../model/transcript.js';
import { t } from '../../i18n/index.js';
import type { Line } from '../text/segments.js';
import { reasoningLines } from './lines.js';
import type { ShowReasoning } from '../../config/types.js';

type AssistantItem = Extract<TranscriptItem, { kind: 'assistant' }>;

export function viewerReasoningLines(item: AssistantItem, mode: ShowReasoning, expandedEntry: boolean, width: number): Line[] {
  return reasoningLines(item, mode, expandedEntry || mode === 'expanded', width, 2, t('reasoning:expandHint'));
}

export function childTranscriptReasoningLines(item: AssistantItem, mode: ShowReasoning, width: number): Line[] {
  return reasoningLines(item, mode, true, width);
}
