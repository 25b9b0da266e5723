// arbor's transcript items as ACP session updates: the answer and reasoning as message and
// thought chunks, each tool call as tool_call / tool_call_update with its status, and a
// file change (write_file / edit_file) as ACP diff content built from the structured display.
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { ToolCallStatus, TranscriptItem, ToolTranscriptItem } from '../../model/transcript.js';
import type { DiffDisplay, ToolDisplay } from '../../model/toolDisplay.js';

type Update = acp.SessionUpdate;

/** arbor's tool status as ACP's (pending / in_progress / completed / failed). */
export function acpToolStatus(status: ToolCallStatus): acp.ToolCallStatus {
  switch (status) {
    case 'pending_approval':
      return 'pending';
    case 'running':
      return 'in_progress';
    case 'ok':
      return 'completed';
    default:
      return 'failed';
  }
}

const KINDS: Record<string, acp.ToolKind> = {
  read_file: 'read',
  list_files: 'search',
  glob: 'search',
  grep: 'search',
  write_file: 'edit',
  edit_file: 'edit',
  shell: 'execute',
  fetch: 'fetch',
  web_fetch: 'fetch',
  spawn_subagent: 'other',
  delegate: 'other',
};

export function acpToolKind(name: string): acp.ToolKind {
  return KINDS[name] ?? 'other';
}

/**
 * The diff as ACP carries it (whole old and new text of the changed region). arbor keeps
 * hunks, not whole files, so the texts are the hunks' old and new sides: an editor shows
 * the changed lines with their context, which is what arbor's own card shows.
 */
export function diffContent(d: DiffDisplay, cwd: string): acp.ToolCallContent {
  const oldLines: string[] = [];
  const newLines: string[] = [];
  for (const h of d.hunks) {
    for (const line of h.lines) {
      const mark = line[0];
      const body = line.slice(1);
      if (mark === ' ' || mark === '-') oldLines.push(body);
      if (mark === ' ' || mark === '+') newLines.push(body);
    }
  }
  const path = d.path.startsWith('/') ? d.path : `${cwd.replace(/\/$/, '')}/${d.path}`;
  return {
    type: 'diff',
    path,
    oldText: d.created ? null : oldLines.join('\n'),
    newText: newLines.join('\n'),
    _meta: { arbor: { added: d.added, removed: d.removed, ...(d.truncated ? { truncated: true } : {}) } },
  };
}

function resultContent(item: ToolTranscriptItem, cwd: string): acp.ToolCallContent[] {
  const d: ToolDisplay | undefined = item.display;
  if (d?.kind === 'diff') return [diffContent(d, cwd)];
  if (item.result) return [{ type: 'content', content: { type: 'text', text: item.result } }];
  return [];
}

function title(item: ToolTranscriptItem): string {
  const args = item.args as Record<string, unknown> | undefined;
  const what = args && typeof args === 'object' ? (args.path ?? args.command ?? args.agent ?? args.prompt) : undefined;
  return typeof what === 'string' && what.length > 0 ? `${item.name}: ${what.slice(0, 120)}` : item.name;
}

/** What one session stream has already sent, so each look at the transcript sends only news. */
export class TranscriptStream {
  private readonly textSeen = new Map<string, number>();
  private readonly thoughtSeen = new Map<string, number>();
  private readonly toolSeen = new Map<string, ToolCallStatus>();
  private readonly userSeen = new Set<string>();
  /** Child sessions a spawn_subagent / delegate call links to, kept in front of its result. */
  private readonly links = new Map<string, acp.ToolCallContent[]>();

  constructor(
    private readonly cwd: string,
    /** Replay (session/load) sends user messages too; a live turn's were sent by the client. */
    private readonly sendUser = false,
  ) {}

  addLink(itemId: string, link: acp.ToolCallContent): void {
    this.links.set(itemId, [...(this.links.get(itemId) ?? []), link]);
  }

  linksOf(itemId: string): acp.ToolCallContent[] {
    return this.links.get(itemId) ?? [];
  }

  linkedSessions(itemId: string): string[] {
    return this.linksOf(itemId).map((l) => (l as unknown as { sessionId: string }).sessionId);
  }

  /** Marks the items as seen without sending them (a resumed session's earlier history). */
  skip(items: readonly TranscriptItem[]): void {
    const quiet: Update[] = [];
    this.diff(items, quiet);
  }

  /** The updates that bring the client from what it saw to `items`. */
  updates(items: readonly TranscriptItem[]): Update[] {
    const out: Update[] = [];
    this.diff(items, out);
    return out;
  }

  private diff(items: readonly TranscriptItem[], out: Update[]): void {
    for (const item of items) {
      if (item.kind === 'user') {
        if (this.userSeen.has(item.id)) continue;
        this.userSeen.add(item.id);
        if (this.sendUser) out.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: item.text } });
      } else if (item.kind === 'assistant') {
        const thought = this.thoughtSeen.get(item.id) ?? 0;
        if (typeof item.reasoning === 'string' && item.reasoning.length > thought) {
          out.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: item.reasoning.slice(thought) } });
          this.thoughtSeen.set(item.id, item.reasoning.length);
        }
        const seen = this.textSeen.get(item.id) ?? 0;
        if (item.text.length > seen) {
          out.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: item.text.slice(seen) } });
          this.textSeen.set(item.id, item.text.length);
        }
      } else if (item.kind === 'tool') {
        this.tool(item, out);
      }
    }
  }

  private tool(item: ToolTranscriptItem, out: Update[]): void {
    const prev = this.toolSeen.get(item.id);
    if (prev === item.status) return;
    this.toolSeen.set(item.id, item.status);
    const status = acpToolStatus(item.status);
    if (prev === undefined) {
      out.push({
        sessionUpdate: 'tool_call',
        toolCallId: item.id,
        title: title(item),
        kind: acpToolKind(item.name),
        status,
        rawInput: item.args ?? item.rawArgs,
        ...(status === 'completed' || status === 'failed' ? { content: [...this.linksOf(item.id), ...resultContent(item, this.cwd)] } : {}),
        _meta: { arbor: { tool: item.name, callId: item.callId, runId: item.runId } },
      });
      return;
    }
    const done = status === 'completed' || status === 'failed';
    out.push({
      sessionUpdate: 'tool_call_update',
      toolCallId: item.id,
      status,
      ...(done ? { content: [...this.linksOf(item.id), ...resultContent(item, this.cwd)], rawOutput: { status: item.status } } : {}),
    });
  }
}
