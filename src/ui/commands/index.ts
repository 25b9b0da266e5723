// The built-in commands. Later features append theirs (e.g. /agents, /subagents).
import { clearCommand } from './clear.js';
import { helpCommand } from './help.js';
import { langCommand } from './lang.js';
import { modelCommand } from './model.js';
import { quitCommand } from './quit.js';
import { resumeCommand } from './resume.js';
import type { SlashCommand } from './registry.js';
import { sessionsCommand } from './sessions.js';

export function builtinCommands(): SlashCommand[] {
  return [helpCommand, clearCommand, modelCommand, sessionsCommand, resumeCommand, langCommand, quitCommand];
}
