// The config lines every delegating benchmark starts from: the loopback model as provider
// `fake` and a risk profile that lets agents delegate. Kept in one place so the benchmarks
// configure arbor alike and a change to the provider's shape is made once.

/** `[providers.fake]` at the loopback server `url`, then `[risk_profiles.trusted]` allowing delegation. */
export function fakeTrustedProvider(url) {
  return `[providers.fake]
type = "openai-compatible"
base_url = "${url}"
model = "fake-model"

[risk_profiles.trusted]
delegation_policy = { mode = "allow" }`;
}
