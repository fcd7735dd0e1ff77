package vllm

// srcHeadlessModule: the OpenAI api_server module (the vllm-openai image's
// entrypoint in those releases) does not read --headless.
const srcHeadlessModule = "PR #25309 (Sep 2025, closed): \"API server headless mode and scale-out is silently ignored using the Dockerfile's entrypoint " +
	"(python -m vllm.entrypoints.openai.api_server) because the logic ... is only run inside the CLI file\"; issue #33910 and PR #36875 (Mar 2026, closed): " +
	"a --nnodes follower started with `python3 -m vllm.entrypoints.openai.api_server ... --headless` fails with \"collective_rpc should not be called on follower node\"; " +
	"fixed release unknown (neither PR was merged)"

// headlessIgnoredConfirmedUntil is the newest release a source shows the
// api_server module ignoring --headless in (PR #36875); its first release
// is the flag's own (the headless entry of the flag table).
var headlessIgnoredConfirmedUntil = mustVersion("0.17.1")

// APIServerModuleIgnoresHeadless reports whether `python -m
// vllm.entrypoints.openai.api_server --headless` still starts an API server
// and a full engine in this release (only `vllm serve` runs headless):
// Present up to 0.17.1, Maybe after (no fix is known).
func (r Release) APIServerModuleIgnoresHeadless() (Presence, string) {
	f, ok := KnownFlagEver("headless")
	if !ok {
		return Absent, srcHeadlessModule
	}
	p := f.In(r.Version)
	if p == Present && r.Version.Compare(headlessIgnoredConfirmedUntil) > 0 {
		p = Maybe
	}
	return p, srcHeadlessModule
}

// HeadlessRefusesAPIServerCount reports whether --headless with
// --api-server-count N > 0 is a start-up error in this release. Before,
// `api_server_count < 1 or headless` ran headless and ignored the count
// (0.9.1-0.12.0); the refusal needs the unset default (only then is an
// explicit count told apart from the default), and 0.16.0's serve.py is
// where both were first read. So the span is the flag table's entry for
// that generation of --api-server-count, not a second record of it.
func (r Release) HeadlessRefusesAPIServerCount() (Presence, string) {
	for _, f := range FlagHistory("api-server-count") {
		if f.Default == "" {
			return f.In(r.Version), srcServe091 + "; " + f.Source
		}
	}
	return Absent, srcServe091
}

// imageModuleEntrypoint: vllm/vllm-openai images whose entrypoint is the
// api_server module rather than `vllm serve`: PR #25309 (Sep 2025, the
// 0.10.2/0.11.0 era) names it as the Dockerfile's entrypoint; when the
// image switched is unverified.
var (
	imageModuleEntrypoint          = Span{Since: vPre}
	imageModuleEntrypointConfirmed = v0110
)

// ImageEntrypointIsAPIServerModule reports whether the release's official
// image starts `python -m vllm.entrypoints.openai.api_server`: Present up to
// 0.11.0, Maybe after.
func (r Release) ImageEntrypointIsAPIServerModule() Presence {
	p := imageModuleEntrypoint.In(r.Version)
	if p == Present && r.Version.Compare(imageModuleEntrypointConfirmed) > 0 {
		p = Maybe
	}
	return p
}
