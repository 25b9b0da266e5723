// A server's URL-mode request at the head of the queue: which server asks for which run,
// its message and the URL in full (both neutralised by the runtime; the URL wraps rather
// than being cut, so it can be copied to another machine), then the choices Open in
// browser, I've done it (accept) and Decline; Esc cancels. Nothing opens the page but the
// operator's choice.
import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { PendingElicitation } from '../../model/controls.js';
import { t } from '../../i18n/index.js';
import { wrapText } from '../text/width.js';
import { ElicitationHeader, messageLines } from './ElicitationHeader.js';
import { formOf, subscribeForms } from './formState.js';

/** The choices, in their order on screen (the focus indexes them). */
export const URL_CHOICES = ['open', 'done', 'decline'] as const;
export type UrlChoice = (typeof URL_CHOICES)[number];

/** Most rows the URL may take before it is cut (a page address is rarely longer). */
const MAX_URL_LINES = 6;

const inner = (width: number) => Math.max(8, width - 4);
/** The label, then the URL from the start of its own row (easy to select and copy). */
const urlLines = (e: PendingElicitation, width: number) => [
  t('ui:elicit.url.label'),
  ...wrapText(e.url ?? '', inner(width)).slice(0, MAX_URL_LINES),
];

/** Border (2), title, attribution note, message, URL, opened note, three choices, hint. */
export function urlElicitationHeight(e: PendingElicitation, width: number, maxMessageLines: number): number {
  const note = e.attribution === 'call' ? 0 : 1;
  const opened = e.opened ? wrapText(t('ui:elicit.url.opened'), inner(width)).length : 0;
  return 2 + 1 + note + messageLines(e, width, maxMessageLines).length + urlLines(e, width).length + opened + URL_CHOICES.length + 1;
}

export interface UrlElicitationPromptProps {
  elicitation: PendingElicitation;
  path: string;
  queued: string;
  width: number;
  maxMessageLines: number;
}

export function UrlElicitationPrompt({ elicitation: e, path, queued, width, maxMessageLines }: UrlElicitationPromptProps) {
  const form = useSyncExternalStore(
    subscribeForms,
    () => formOf(e),
    () => formOf(e),
  );
  const labels: Record<UrlChoice, [string, string]> = {
    open: [t('ui:elicit.url.open'), 'cyan'],
    done: [t('ui:elicit.url.done'), 'green'],
    decline: [t('ui:elicit.decline'), 'red'],
  };
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="blue" paddingX={1} width={width}>
      <ElicitationHeader
        e={e}
        title="ui:elicit.url.title"
        request="ui:elicit.url.request"
        queued={queued}
        path={path}
        width={width}
        maxMessageLines={maxMessageLines}
      />
      {urlLines(e, width).map((line, i) => (
        <Text key={`u${i}`} color="cyan">
          {line}
        </Text>
      ))}
      {e.opened && <Text color="green">{t('ui:elicit.url.opened')}</Text>}
      {URL_CHOICES.map((choice, i) => (
        <Text key={choice} wrap="truncate-end" inverse={form.focus === i}>
          {form.focus === i ? '› ' : '  '}
          <Text color={labels[choice][1]} bold>{`[${labels[choice][0]}]`}</Text>
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {t('ui:elicit.url.hint')}
      </Text>
    </Box>
  );
}
