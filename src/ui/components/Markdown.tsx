// Finished assistant text rendered as markdown: marked's lexer tokenizes, Ink renders.
// Ink wraps every Text to the box it sits in, so passing the width re-wraps on resize.
import React, { memo, useMemo, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import { marked, type Token, type Tokens } from 'marked';
import { neutralize } from '../../text/untrusted.js';

export interface MarkdownProps {
  text: string;
  width: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Models sometimes write HTML entities; the terminal should show the character. A numeric
 * entity can name a control character (`&#27;` is ESC): decoding one would rebuild the
 * escape sequence the store neutralised, so what comes out is neutralised too. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return neutralize(decodeAll(text));
}

function decodeAll(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (ENTITIES[lower]) return ENTITIES[lower];
    const cp = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : lower.startsWith('#') ? parseInt(lower.slice(1), 10) : NaN;
    return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}

function lex(text: string): Token[] {
  try {
    return marked.lexer(text, { gfm: true });
  } catch {
    // The lexer should not throw, but a reply must never take the screen down with it.
    return [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] } as Tokens.Paragraph];
  }
}

function inline(tokens: Token[] | undefined, key: string): ReactNode[] {
  if (!tokens) return [];
  return tokens.map((tok, i) => inlineToken(tok, `${key}.${i}`));
}

function inlineToken(tok: Token, key: string): ReactNode {
  switch (tok.type) {
    case 'text': {
      const t = tok as Tokens.Text;
      return t.tokens ? <Text key={key}>{inline(t.tokens, key)}</Text> : decodeEntities(t.text);
    }
    case 'escape':
      return (tok as Tokens.Escape).text;
    case 'strong':
      return (
        <Text key={key} bold>
          {inline((tok as Tokens.Strong).tokens, key)}
        </Text>
      );
    case 'em':
      return (
        <Text key={key} italic>
          {inline((tok as Tokens.Em).tokens, key)}
        </Text>
      );
    case 'del':
      return (
        <Text key={key} strikethrough>
          {inline((tok as Tokens.Del).tokens, key)}
        </Text>
      );
    case 'codespan':
      return (
        <Text key={key} color="cyan">
          {(tok as Tokens.Codespan).text}
        </Text>
      );
    case 'br':
      return '\n';
    case 'link': {
      const link = tok as Tokens.Link;
      const label = link.text.trim();
      const bare = label === link.href || label === link.href.replace(/^mailto:/, '');
      return (
        <Text key={key}>
          <Text color="blue" underline>
            {bare ? link.href : inline(link.tokens, key)}
          </Text>
          {bare ? '' : <Text dimColor>{` (${link.href})`}</Text>}
        </Text>
      );
    }
    case 'image': {
      const img = tok as Tokens.Image;
      return (
        <Text key={key}>
          {img.text ? `${decodeEntities(img.text)} ` : ''}
          <Text dimColor>{`(${img.href})`}</Text>
        </Text>
      );
    }
    case 'checkbox':
      return (tok as unknown as Tokens.Checkbox).checked ? '☒ ' : '☐ ';
    default:
      return 'text' in tok && typeof tok.text === 'string' ? decodeEntities(tok.text) : tok.raw;
  }
}

function codeLines(text: string): string {
  return text.replace(/\t/g, '    ');
}

function blocks(tokens: Token[], width: number, key: string, tight = false): ReactNode[] {
  const out: ReactNode[] = [];
  let first = true;
  tokens.forEach((tok, i) => {
    if (tok.type === 'space' || tok.type === 'def') return;
    const node = block(tok, width, `${key}.${i}`);
    if (node === null) return;
    out.push(
      <Box key={`${key}.${i}`} marginTop={first || tight ? 0 : 1} flexDirection="column">
        {node}
      </Box>,
    );
    first = false;
  });
  return out;
}

function listItems(list: Tokens.List, width: number, key: string, depth: number): ReactNode {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((item, i) => {
    if (item.task) return item.checked ? '☒' : '☐';
    if (list.ordered) return `${start + i}.`;
    return depth % 2 === 0 ? '•' : '◦';
  });
  const markerWidth = Math.max(...markers.map((m) => m.length)) + 1;
  const inner = Math.max(4, width - markerWidth);
  return list.items.map((item, i) => (
    <Box key={`${key}.${i}`} flexDirection="row" marginTop={list.loose && i > 0 ? 1 : 0}>
      <Box width={markerWidth} flexShrink={0}>
        <Text color="yellow">{markers[i]}</Text>
      </Box>
      <Box flexDirection="column" width={inner}>
        {item.tokens.map((child, j) =>
          child.type === 'list' ? (
            <Box key={j} flexDirection="column">
              {listItems(child as Tokens.List, inner, `${key}.${i}.${j}`, depth + 1)}
            </Box>
          ) : (
            <Box key={j} flexDirection="column">
              {child.type === 'checkbox' ? null : block(child, inner, `${key}.${i}.${j}`)}
            </Box>
          ),
        )}
      </Box>
    </Box>
  ));
}

function table(tok: Tokens.Table, width: number, key: string): ReactNode {
  const cell = (c: Tokens.TableCell) => decodeEntities(c.text.replace(/\s+/g, ' ').trim());
  const header = tok.header.map(cell);
  const rows = tok.rows.map((r) => r.map(cell));
  const cols = header.length;
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const total = widths.reduce((a, b) => a + b, 0) + (cols - 1) * 3;
  // Too wide for the terminal: keep every cell, one row per line, wrapped.
  const fits = total <= width;
  const line = (cells: string[]) => (fits ? cells.map((c, i) => c.padEnd(widths[i])).join(' │ ') : cells.join(' │ '));
  return (
    <Box flexDirection="column" key={key}>
      <Text bold>{line(header)}</Text>
      <Text dimColor>{fits ? widths.map((w) => '─'.repeat(w)).join('─┼─') : '─'.repeat(Math.min(width, 20))}</Text>
      {rows.map((r, i) => (
        <Text key={i}>{line(r)}</Text>
      ))}
    </Box>
  );
}

/** A dim rule down the left edge: code blocks and quotes. */
function LeftBar({ children }: { children: React.ReactNode }) {
  return (
    <Box
      flexDirection="column"
      borderStyle="single"
      borderTop={false}
      borderRight={false}
      borderBottom={false}
      borderDimColor
      paddingLeft={1}
    >
      {children}
    </Box>
  );
}

function block(tok: Token, width: number, key: string): ReactNode | null {
  switch (tok.type) {
    case 'heading': {
      const h = tok as Tokens.Heading;
      return (
        <Text bold color={h.depth <= 2 ? 'magenta' : undefined} underline={h.depth === 1}>
          {inline(h.tokens, key)}
        </Text>
      );
    }
    case 'paragraph':
      return <Text>{inline((tok as Tokens.Paragraph).tokens, key)}</Text>;
    case 'text': {
      const t = tok as Tokens.Text;
      return <Text>{t.tokens ? inline(t.tokens, key) : decodeEntities(t.text)}</Text>;
    }
    case 'code': {
      const code = tok as Tokens.Code;
      return (
        <LeftBar>
          {code.lang ? <Text dimColor>{code.lang}</Text> : null}
          <Text color="yellow">{codeLines(code.text)}</Text>
        </LeftBar>
      );
    }
    case 'blockquote': {
      const q = tok as Tokens.Blockquote;
      return <LeftBar>{blocks(q.tokens, Math.max(4, width - 2), key)}</LeftBar>;
    }
    case 'list':
      return <Box flexDirection="column">{listItems(tok as Tokens.List, width, key, 0)}</Box>;
    case 'hr':
      return <Text dimColor>{'─'.repeat(Math.max(1, Math.min(width, 40)))}</Text>;
    case 'table':
      return table(tok as Tokens.Table, width, key);
    case 'html':
      return <Text dimColor>{(tok as Tokens.HTML).text.replace(/\n+$/, '')}</Text>;
    default:
      return tok.raw ? <Text>{tok.raw.replace(/\n+$/, '')}</Text> : null;
  }
}

export const Markdown = memo(function Markdown({ text, width }: MarkdownProps) {
  const tokens = useMemo(() => lex(text), [text]);
  return (
    <Box flexDirection="column" width={width}>
      {blocks(tokens, width, 'md')}
    </Box>
  );
});
