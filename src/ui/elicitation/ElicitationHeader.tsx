// The top of both elicitation prompts (a form and a URL request): who asks from where, the
// note when the request cannot be tied to one call, and the server's message, wrapped and
// capped. The message was neutralised where it entered the store.
import React from 'react';
import { Text } from 'ink';
import type { PendingElicitation } from '../../model/controls.js';
import { t, type TranslationKey } from '../../i18n/index.js';
import { wrapText } from '../text/width.js';

/** The message's rows inside the prompt's border and padding. */
export const messageLines = (e: PendingElicitation, width: number, max: number) =>
  wrapText(e.message, Math.max(8, width - 4)).slice(0, max);

export interface ElicitationHeaderProps {
  e: PendingElicitation;
  title: TranslationKey;
  request: TranslationKey;
  /** " (2 of 3)" when more wait, else ''. */
  queued: string;
  path: string;
  width: number;
  maxMessageLines: number;
}

export function ElicitationHeader({ e, title, request, queued, path, width, maxMessageLines }: ElicitationHeaderProps) {
  return (
    <>
      <Text wrap="truncate-end">
        <Text color="blue" bold>{`${t(title)}${queued}: `}</Text>
        <Text>{t(request, { server: e.server, path })}</Text>
      </Text>
      {e.attribution !== 'call' && (
        <Text color="yellow" wrap="truncate-end">
          {t(e.attribution === 'shared' ? 'ui:elicit.attributedShared' : 'ui:elicit.attributedUnknown')}
        </Text>
      )}
      {messageLines(e, width, maxMessageLines).map((line, i) => (
        <Text key={`m${i}`}>{line}</Text>
      ))}
    </>
  );
}
