// Config texts, good and bad (several with more than one problem, to pin which is named
// first). configSchema.golden.json was recorded from the hand-written validator over these.
import { BASE } from './helpers.js';

const prov = (line: string): string => BASE.replace('[agents.main]', `${line}\n[agents.main]`);

export const configCorpus: string[][] = [
  [''],
  [BASE],
  [`${BASE}\n[ui]\nlanguage = "es"\n`],
  [`${BASE}\n[runtime_profiles.x]\n[risk_profiles.y]\n[delegation]\n[delegation.runaway]\n`],
  [
    `${BASE.replace('[agents.main]', 'temperature = 2\nmax_tokens = 1\ntimeout_secs = 0.5\nfirst_byte_timeout_secs = 3\nidle_timeout_secs = 4\napi_key_env = "K"\nheaders = { a = "b" }\npricing = { input_per_mtok = 0, output_per_mtok = 15 }\n[agents.main]')}
description = "d"
system_prompt = "s"
delegate_same_risk_profile = false
delegates = ["r", { agent = "q", mode = "independent" }, { agent = "z" }]
[agents.r]
enabled = false
risk_profile = "nope"
[agents.q]
runtime_profile = "nope2"
[agents.z]
[runtime_profiles.default]
max_tool_iterations = 1000
max_execution_tree_iterations = 1
max_delegation_depth = 10
parallel_tools = true
shell_timeout_secs = 2.5
agentic = true
delegation_timeout_secs = 9
agentic_timeout_secs = 8
max_reply_kb = 12
[risk_profiles.default]
allowed_tools = ["a"]
excluded_tools = ["b"]
deny_all_tools = true
auto_approve = []
always_ask = ["shell"]
allowed_roots = ["/x"]
forbidden_paths = []
allowed_commands = ["ls"]
shell_env_passthrough = ["GITHUB_TOKEN"]
max_actions_per_hour = 3
max_cost_per_day_cents = 2.5
delegation_policy = { mode = "allow" }
[risk_profiles.strict]
delegation_policy = {}
[delegation]
max_concurrent = 1000
max_children_per_agent = 1
archive_after_minutes = 0
subagent_auto_approve = true
run_timeout_secs = 5
[delegation.runaway]
max_tree_size = 3
max_spawns_per_minute = 4
max_tree_tokens = 2_000_000
max_tree_cost_cents = 0.5
on_trip = "kill_tree"
`,
  ],
  [
    `${BASE}\ntemprature = 1\n[ui]\nlanguage = "en"\ncolour = 1\n[providers.local.pricing]\ninput_per_mtok = 1\noutput_per_mtok = 1\nextra = 2\n[delegation.runaway]\nfoo = 1\n`,
  ],
  [`${BASE}\ndelegates = [{ agent = "main2", mood = 1 }]\n[agents.main2]\nprovider = "local"\n`],
  ['[providers.a]\ntype = "offline"\n[agents.x]\n[agents.y]\n'],
  ['[providers.a]\ntype = "offline"\n'],
  ['[providers.a]\ntype = "offline"\n[providers.b]\ntype = "offline"\n[agents.main]\ndescription = "x"\n'],
  ['[providers.p]\ntype = "offline"\n[agents.solo]\nsystem_prompt = "hi"\n'],
  ['[providers."my.box"]\ntype = "openai"\n[agents.main]\nprovider = "my.box"\n'],
  [`default_agent = "boss"\n${BASE}`],
  [`default_agent = ""\n${BASE}`],
  [`default_agent = false\n${BASE}`],
  [`${BASE}enabled = false\n`],
  [BASE.replace('provider = "local"', 'provider = "locl"')],
  [BASE.replace('provider = "local"', 'provider = ""')],
  [BASE.replace('provider = "local"', 'provider = 3')],
  [prov('temperature = "hot"')],
  [prov('temperature = 3')],
  [prov('temperature = -0.5')],
  [prov('max_tokens = 0')],
  [prov('max_tokens = 1.5')],
  [prov('timeout_secs = 0')],
  [prov('first_byte_timeout_secs = -1')],
  [prov('idle_timeout_secs = "x"')],
  [prov('pricing = { input_per_mtok = -1, output_per_mtok = 0 }')],
  [prov('pricing = { input_per_mtok = 1 }')],
  [prov('pricing = 3')],
  [prov('headers = { "X-Title" = "arbor", "X-Retries" = 3 }')],
  [prov('headers = 3')],
  [prov('api_key_env = "sk-live-1234567890abcdef"')],
  [prov('api_key_env = 5')],
  [prov('base_url = "localhost:11434"').replace('base_url = "http://127.0.0.1:11434/v1"\n', '')],
  [BASE.replace('http://127.0.0.1:11434/v1', 'localhost:11434')],
  [BASE.replace('http://127.0.0.1:11434/v1', '  ')],
  [BASE.replace('base_url = "http://127.0.0.1:11434/v1"\n', '')],
  [BASE.replace('model = "qwen3:8b"\n', '')],
  [BASE.replace('model = "qwen3:8b"\n', 'model = ""\n')],
  [BASE.replace('type = "openai-compatible"\n', '')],
  [BASE.replace('"openai-compatible"', '"ollama"')],
  [BASE.replace('"openai-compatible"', '3')],
  ['[providers.off]\ntype = "offline"\n[agents.main]\nprovider = "off"\n'],
  // several problems at once
  [BASE.replace('type = "openai-compatible"\n', 'temperature = "x"\n')],
  [BASE.replace('model = "qwen3:8b"\n', 'temperature = 9\n')],
  [`${BASE.replace('provider = "local"', 'provider = "locl"')}enabled = "x"\n`],
  [`${BASE.replace('provider = "local"', 'provider = "locl"')}[agents.b]\nenabled = "x"\n`],
  [`${BASE}delegates = ["ghost"]\nenabled = 3\n`],
  [
    `${BASE}[ui]\nlanguage = "fr"\n[delegation]\nmax_concurrent = 0\n[runtime_profiles.default]\nmax_tool_iterations = 0\n[risk_profiles.default]\nallowed_tools = 3\n`,
  ],
  [`${BASE}[delegation]\nmax_concurrent = 0\nrunaway = 5\n`],
  [prov('max_tokens = 0\ntemperature = 9\npricing = 3')],
  [`${BASE}risk_profile = "ghost"\n`],
  [`${BASE}runtime_profile = "ghost"\n[agents.other]\nprovider = "local"\nrisk_profile = "ghost2"\n`],
  [`${BASE}[runtime_profiles.default]\nmax_execution_tree_iterations = 0\nmax_tool_iterations = 0\n`],
  // wrong types and ranges from the validation tests
  [`[ui]\nlanguage = 1\n${BASE}`],
  [`${BASE}\n[runtime_profiles.default]\nparallel_tools = "yes"\n`],
  [`${BASE}\n[runtime_profiles.default]\nmax_tool_iterations = 2.5\n`],
  [`${BASE}\n[risk_profiles.default]\nauto_approve = "shell"\n`],
  [`${BASE}\n[risk_profiles.default]\nallowed_tools = ["shell", 3]\n`],
  [`${BASE}\n[risk_profiles.default]\nshell_env_passthrough = ["GITHUB_TOKEN", "sk-live-123"]\n`],
  [`${BASE}\n[risk_profiles.default]\ndelegation_policy = { mode = "sometimes" }\n`],
  [`${BASE}\n[risk_profiles.default]\ndelegation_policy = 3\n`],
  [`${BASE}\n[risk_profiles.default]\nmax_actions_per_hour = -1\nmax_cost_per_day_cents = -1\n`],
  [`${BASE}\n[delegation]\nrunaway = 5\n`],
  [`ui = [1]\n${BASE}`],
  [`risk_profiles = 3\n${BASE}`],
  [`agents = 3\n[providers.a]\ntype = "offline"\n`],
  [`providers = 3\n`],
  [`${BASE}\n[risk_profiles]\nstrict = true\n`],
  [`${BASE}\n[delegation]\nmax_concurrent = 1979-05-27\n`],
  [`${BASE}\n[runtime_profiles.default]\nmax_execution_tree_iterations = -3\n`],
  [`${BASE}\n[runtime_profiles.agentic]\nmax_delegation_depth = 11\n`],
  [`${BASE}\n[runtime_profiles.default]\nshell_timeout_secs = inf\n`],
  [`${BASE}\n[runtime_profiles.default]\nshell_timeout_secs = -inf\n`],
  [`${BASE}\n[runtime_profiles.default]\nmax_reply_kb = 0\n`],
  [`${BASE}\n[runtime_profiles.default]\ndelegation_timeout_secs = 0\n`],
  [`${BASE}\n[delegation]\nrun_timeout_secs = nan\n`],
  [`${BASE}\n[delegation]\narchive_after_minutes = -1\n`],
  [`${BASE}\n[delegation]\nsubagent_auto_approve = 1\n`],
  [`${BASE}\n[delegation.runaway]\non_trip = "explode"\n`],
  [`${BASE}\n[delegation.runaway]\nmax_tree_size = 0\n`],
  [`${BASE}\n[delegation.runaway]\nmax_tree_cost_cents = 0\n`],
  [`${BASE}\n[delegation.runaway]\nmax_spawns_per_minute = 0.5\n`],
  [`${BASE}delegates = "reviewer"\n`],
  [`${BASE}delegates = [3]\n`],
  [`${BASE}delegates = ["main"]\n`],
  [`${BASE}delegates = [{ mode = "bounded" }]\n`],
  [`${BASE}delegates = [{ agent = "" }]\n`],
  [`${BASE}delegates = [{ agent = "b", mode = "wild" }]\n[agents.b]\n`],
  [`${BASE}delegates = ["b", "b"]\n[agents.b]\n`],
  [`${BASE}delegates = ["b", { agent = "b" }]\n[agents.b]\n`],
  [`${BASE}\n[agents." "]\nprovider = "local"\n`],
  [`${BASE}\n[agents.x]\nprovider = "local"\nsystem_prompt = 3\n`],
  [`${BASE}\n[agents.x]\nprovider = "local"\ndescription = 3\n`],
  [`${BASE}\n[agents.x]\nprovider = "local"\nrisk_profile = ""\n`],
  [`${BASE}\n[agents.x]\nprovider = "local"\nrisk_profile = " "\nruntime_profile = ""\n`],
  [`${BASE}\n[agents]\nx = 3\n`],
  // layers: the later file wins and errors name the file that set the value
  [BASE, '[agents.main]\nenabled = false\n'],
  [BASE, '[providers.local]\ntemperature = 9\n'],
  ['[providers.local]\ntemperature = 9\n', BASE],
  [BASE, '[runtime_profiles.default]\nparallel_tools = true\n', '[runtime_profiles.default]\nparallel_tools = "x"\n'],
  [BASE, 'default_agent = "nobody"\n'],
  [BASE, '[agents.b]\nprovider = "local"\n', '[agents.b]\nrisk_profile = "gone"\n'],
  // [mcp_servers.<name>]: stdio or url, the wrong mix named by key; agents name known servers
  [
    `${BASE}mcp_servers = ["fs"]\n[mcp_servers.fs]\ncommand = "npx"\nargs = ["-y", "srv", "."]\nenv = { LOG_LEVEL = "warn" }\ncwd = "/tmp"\n[mcp_servers.web]\nurl = "http://127.0.0.1:8931/mcp"\nheaders = { X = "y" }\nbearer_token_env = "WEB_TOKEN"\nenabled = false\nstartup_timeout_secs = 2\ntool_timeout_secs = 0.5\n[risk_profiles.r]\ntrust_read_only_mcp = true\n`,
  ],
  [`${BASE}[mcp_servers.fs]\ncommand = "x"\nurl = "http://a"\n`],
  [`${BASE}[mcp_servers.fs]\nenabled = true\n`],
  [`${BASE}[mcp_servers.fs]\ncommand = 3\n`],
  [`${BASE}[mcp_servers.fs]\ncommand = "x"\nargs = "a b"\n`],
  [`${BASE}[mcp_servers.fs]\ncommand = "x"\nenv = { A = 1 }\n`],
  [`${BASE}[mcp_servers.fs]\nurl = "http://a"\nargs = ["x"]\n`],
  [`${BASE}[mcp_servers.fs]\ncommand = "x"\nbearer_token_env = "T"\n`],
  [`${BASE}[mcp_servers.fs]\nurl = "http://a"\nbearer_token_env = "not a name"\n`],
  [`${BASE}[mcp_servers.fs]\nurl = "ftp://a"\n`],
  [`${BASE}[mcp_servers.fs]\nurl = "http://a"\nstartup_timeout_secs = "x"\n`],
  [`${BASE}[mcp_servers.fs]\nurl = "http://a"\ntool_timeout_secs = 0\n`],
  [`${BASE}[mcp_servers.fs]\nurl = "http://a"\nenabled = "yes"\n`],
  [`${BASE}[mcp_servers."a__b"]\nurl = "http://a"\n`],
  [`${BASE}[mcp_servers]\nfs = 3\n`],
  [`${BASE}mcp_servers = ["nope"]\n[mcp_servers.fs]\nurl = "http://a"\n`],
  [`${BASE}mcp_servers = ["fs"]\n`],
  [`${BASE}mcp_servers = "fs"\n`],
  [`${BASE}\n[risk_profiles.x]\ntrust_read_only_mcp = "yes"\n`],
];
