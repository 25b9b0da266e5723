// A server's form in the chat (a real pty, the built app): an SDK MCP server started over
// stdio whose tool calls elicitInput; the form shows its fields (defaults pre-filled,
// required marked), refuses a missing required field and a wrong number, is filled by
// typing, and the server receives the content; Ctrl+X declines and Esc cancels.
import { afterEach, describe, expect, it } from 'vitest';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { sandbox, send } from './sandbox.js';
import { answered, chatUntilAsked } from './elicitingServer.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const FORM = `{
    message: 'Who are you?\\u001b[2J',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        age: { type: 'integer', title: 'Age', default: 30 },
        ok: { type: 'boolean', title: 'Agree' },
        color: { type: 'string', title: 'Colour', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }, { const: 'b', title: 'Blue' }], default: 'g' },
      },
      required: ['name', 'age'],
    },
  }`;

const times = (term: Term, key: Parameters<Term['press']>[0], n: number) => {
  for (let i = 0; i < n; i++) term.press(key);
};

describe.runIf(process.platform === 'linux')('MCP forms in the chat', () => {
  it('the form is filled by typing, validated, and accepted; Ctrl+X declines; Esc cancels', { timeout: 150000 }, async (ctx) => {
    const sb = sandbox(ctx);
    const { term, out } = await chatUntilAsked(
      sb,
      { name: 'forms', tool: 'ask', description: 'asks the user', request: FORM },
      { prompt: 'fill it', shown: 'MCP form: server forms asks for main', done: 'form done' },
    );
    // The message is shown with its escape neutralised; defaults are pre-filled.
    await term.waitForText('Who are you?', 5000);
    expect(term.screen()).not.toContain('\u001b[2J');
    await term.waitForText('Name* (text):', 5000);
    await term.waitForText('Age* (whole number): 30', 5000);
    await term.waitForText('Agree (yes/no): —', 5000);
    await term.waitForText('Colour (choice): ‹ Green ›', 5000);

    // Submit with the required name empty: refused, focus back on the name.
    times(term, 'down', 4);
    term.press('enter');
    await term.waitForText('Name is required', 10000);
    term.type('Ada Lovelace');
    await term.waitForText('Name* (text): Ada Lovelace', 10000);
    // A wrong whole number is refused too.
    term.press('down');
    times(term, 'backspace', 2);
    term.type('4.5');
    await term.waitForText('Age* (whole number): 4.5', 10000);
    term.press('enter');
    term.press('enter');
    term.press('enter');
    await term.waitForText('Age must be a whole number', 10000);
    times(term, 'backspace', 3);
    term.type('36');
    await term.waitForText('Age* (whole number): 36', 10000);
    term.press('down');
    term.press('space');
    await term.waitForText('Agree (yes/no): yes', 10000);
    term.press('down');
    term.press('right');
    await term.waitForText('Colour (choice): ‹ Blue ›', 10000);
    term.press('enter');
    expect(await answered(term, out)).toEqual({ action: 'accept', content: { name: 'Ada Lovelace', age: 36, ok: true, color: 'b' } });
    await term.waitForText('form done', 30000);

    await send(term, 'again');
    await term.waitForText('MCP form: server forms asks for main', 30000);
    term.type('\u0018');
    expect(await answered(term, out)).toEqual({ action: 'decline' });

    await send(term, 'once more');
    await term.waitForText('MCP form: server forms asks for main', 30000);
    term.press('esc');
    expect(await answered(term, out)).toEqual({ action: 'cancel' });
    await term.waitForText('answered cancel', 30000, { where: 'all' });
  });
});
