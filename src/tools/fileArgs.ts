// The arguments of read_file, write_file and list_files, declared once: the model's JSON
// Schema is generated from these, and the model's arguments are parsed with them.
import { z } from 'zod';
import { invalidArgsMap, parseToolArgs, withoutNulls, type ArgsResult } from './toolArgs.js';

const filePath = z.string().describe('File path, relative to the workspace or absolute.');

export const readFileArgs = z.object({ path: filePath });

export const writeFileArgs = z.object({
  path: filePath,
  content: z.string().describe('The complete new content of the file.'),
});

export const listFilesArgs = z.object({
  path: z.string().describe("Directory to list, relative to the workspace or absolute (default '.').").optional(),
  pattern: z.string().describe("Glob relative to the directory, e.g. '*.ts' or '**/*.md'.").optional(),
});

const readMap = invalidArgsMap('read_file', '{"path": string}');
const writeMap = invalidArgsMap('write_file', '{"path": string, "content": string}');
const listMap = invalidArgsMap('list_files', '{"path"?: string, "pattern"?: string}');

export const parseReadFileArgs = (raw: unknown): ArgsResult<z.output<typeof readFileArgs>> =>
  parseToolArgs(readFileArgs, withoutNulls(raw), readMap);

export const parseWriteFileArgs = (raw: unknown): ArgsResult<z.output<typeof writeFileArgs>> =>
  parseToolArgs(writeFileArgs, withoutNulls(raw), writeMap);

/** list_files takes no arguments at all as "list the workspace". */
export const parseListFilesArgs = (raw: unknown): ArgsResult<z.output<typeof listFilesArgs>> =>
  parseToolArgs(listFilesArgs, withoutNulls(raw ?? {}), listMap);
