// How a subtree's spend reads on a row or a card: "Σ12.3k $0.0040" (tokens in and out, cost).
import { t } from '../../i18n/index.js';
import type { Usage } from '../../model/usage.js';
import { formatCost, formatTokens } from './format.js';

export function subtreeText(sum: Usage): string {
  return t('agents:row.subtree', { tokens: formatTokens(sum.tokensIn + sum.tokensOut), cost: formatCost(sum.costUsd) });
}
