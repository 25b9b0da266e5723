import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { BASE, FILE, load } from './helpers.js';

beforeAll(() => setLanguage('en'));

describe('unknown keys', () => {
  it('warns once per key, naming key, path and file', () => {
    const text = BASE.replace('[agents.main]', 'temprature = 0.2\n[agents.main]') + 'modle = "x"\n[ui]\nlang = "es"\n';
    const { warnings } = load(text);
    expect(warnings).toEqual([
      `unknown key "temprature" at providers.local.temprature in ${FILE}; did you mean "temperature"?`,
      `unknown key "modle" at agents.main.modle in ${FILE}; did you mean "model"?`,
      `unknown key "lang" at ui.lang in ${FILE}`,
    ]);
  });

  it('finds them at every depth, including delegate entries and unknown sections', () => {
    const text = `${BASE}delegates = [{ agent = "main2", mode = "bounded", why = "x" }]
[agents.main2]
provider = "local"
[agent.typo]
x = 1
[delegation.runaway]
on_trip = "kill_tree"
max_tree_depth = 4
[risk_profiles.default]
delegation_policy = { mode = "allow", scope = "all" }
`;
    const { warnings } = load(text);
    expect(warnings).toEqual([
      `unknown key "why" at agents.main.delegates[0].why in ${FILE}`,
      `unknown key "agent" at agent in ${FILE}; did you mean "agents"?`,
      `unknown key "max_tree_depth" at delegation.runaway.max_tree_depth in ${FILE}`,
      `unknown key "scope" at risk_profiles.default.delegation_policy.scope in ${FILE}`,
    ]);
  });

  it('does not warn about user-chosen names or header names', () => {
    const text = BASE.replace('[agents.main]', 'headers = { "X-Anything" = "1" }\n[agents.main]') + '[runtime_profiles.whatever]\n';
    expect(load(text).warnings).toEqual([]);
  });

  it('the same key in two files is reported for each file, each once', () => {
    const a = { file: '/home/.arbor/config.toml', text: `${BASE}colour = "red"\n` };
    const b = { file: '/proj/.arbor/config.toml', text: '[agents.main]\ncolour = "blue"\n' };
    const { warnings } = loadConfigFromTexts([a, b], {});
    expect(warnings).toEqual([
      'unknown key "colour" at agents.main.colour in /home/.arbor/config.toml',
      'unknown key "colour" at agents.main.colour in /proj/.arbor/config.toml',
    ]);
  });

  it('the same file given twice still warns once', () => {
    const a = { file: FILE, text: `${BASE}colour = "red"\n` };
    expect(loadConfigFromTexts([a, a], {}).warnings).toEqual([`unknown key "colour" at agents.main.colour in ${FILE}`]);
  });

  it('warnings are localized', () => {
    setLanguage('es');
    try {
      const { warnings } = load(`${BASE}colour = "red"\n`);
      expect(warnings).toEqual([`clave desconocida "colour" en agents.main.colour de ${FILE}`]);
    } finally {
      setLanguage('en');
    }
  });
});

describe('unknown keys: the nearest known key (#20 wording)', () => {
  it('suggests a key a typo away, in the table the key sits in, in English and Spanish', () => {
    const text = `${BASE}max_child_token = 5\n[runtime_profiles.fast]\nmax_tool_iteration = 3\n[delegation]\nmax_concurent = 2\nwhatever = 1\n`;
    expect(load(text).warnings).toEqual([
      `unknown key "max_child_token" at agents.main.max_child_token in ${FILE}; did you mean "max_child_tokens"?`,
      `unknown key "max_tool_iteration" at runtime_profiles.fast.max_tool_iteration in ${FILE}; did you mean "max_tool_iterations"?`,
      `unknown key "max_concurent" at delegation.max_concurent in ${FILE}; did you mean "max_concurrent"?`,
      // Nothing close: no guess.
      `unknown key "whatever" at delegation.whatever in ${FILE}`,
    ]);
    setLanguage('es');
    try {
      expect(load(`${BASE}modle = "x"\n`).warnings).toEqual([
        `clave desconocida "modle" en agents.main.modle de ${FILE}; ¿quiso decir "model"?`,
      ]);
    } finally {
      setLanguage('en');
    }
  });
});
