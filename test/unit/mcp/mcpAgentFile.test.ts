// `mcp_servers` in an agent file's frontmatter goes through the same agent schema as the
// TOML `[agents.<alias>]` table: known servers are kept, an unknown one is an error naming
// the file, the line and column, and the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import type { AgentFileText } from '../../../src/config/agentFiles.js';
import { BASE, configErrorOf } from '../config/helpers.js';

beforeAll(() => setLanguage('en'));

const TOML = `${BASE}\n[mcp_servers.fs]\ncommand = "srv"\n[mcp_servers.web]\nurl = "http://127.0.0.1:1/mcp"\n`;
const FILE = '/p/.arbor/agents/rev.md';
const rev = (text: string): AgentFileText => ({ file: FILE, text, scope: 'project' });
const load = (files: AgentFileText[]) => loadConfigFromTexts([{ file: '/p/.arbor/config.toml', text: TOML }], {}, files);

describe('mcp_servers in agent files', () => {
  it('names the servers the agent sees', () => {
    expect(load([rev('---\nmcp_servers: [web]\n---\nYou review.\n')]).config.agents.rev.mcp_servers).toEqual(['web']);
    expect(load([rev('---\ndescription: r\n---\n')]).config.agents.rev.mcp_servers).toBeUndefined();
  });

  it('an unknown server is an error with the file, position and field', () => {
    const err = configErrorOf(() => load([rev('---\nmcp_servers: [fs, nope]\n---\n')]));
    expect(err.message).toBe(`${FILE}:2:19: mcp_servers[1]: unknown MCP server "nope" (known: fs, web)`);
  });
});
