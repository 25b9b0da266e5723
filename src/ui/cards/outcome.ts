// What a tool card's second line says: the result's first line, else a word for the call's
// status. One table for the chat's ToolCard and the viewer's generic card, so the two never
// name a status differently.
import { t, type TranslationKey } from '../../i18n/index.js';
import type { ToolCallStatus, ToolTranscriptItem } from '../../model/transcript.js';
import { resultPreview } from '../text/format.js';

const STATUS_KEYS: Partial<Record<ToolCallStatus, TranslationKey>> = {
  pending_approval: 'transcript:card.awaitingApproval',
  denied: 'transcript:card.denied',
  skipped: 'transcript:card.skipped',
};

/** For a settled call with no result, `missing` says what the card claims: the chat card
 * only flags a failure ('failed'); the viewer, whose expanded card has a result section,
 * says the result was not recorded ('notRecorded'). A running call says nothing. */
export function toolOutcome(item: ToolTranscriptItem, missing: 'failed' | 'notRecorded'): string {
  const first = resultPreview(item.result, item.display);
  if (first) return first;
  const key = STATUS_KEYS[item.status];
  if (key) return t(key);
  if (item.status === 'running') return '';
  if (missing === 'notRecorded') return t('transcript:card.notRecorded');
  return item.status === 'error' ? t('transcript:card.failed') : '';
}
