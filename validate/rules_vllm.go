package validate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkPorts: the API port and the data-parallel RPC port must differ.
func checkPorts(c *checker) {
	v := c.d.VLLM
	if v.Port == v.RPCPort && v.Port != 0 {
		c.errorf(CodePorts, p("vllm", "rpc_port"), "pick two different ports (defaults: port 8000, rpc_port 13345)",
			"rpc_port %d is the same as port (the API server's port)", v.RPCPort)
	}
}

// checkVersion resolves vllm.version once (resolve.Release) and reports it
// unset (the newest release is assumed), unparsable, or not in vlaunch's
// table.
func checkVersion(c *checker) {
	ver := c.d.VLLM.Version
	rel, set, notes, err := resolve.Release(ver)
	if err != nil {
		c.errorf(CodeVersion, p("vllm", "version"), "write it as major.minor.patch in quotes, e.g. \"0.11.0\"", "%v", err)
		return
	}
	c.rel, c.ver, c.notes, c.relOK = rel, set, notes, true
	if ver == "" {
		c.warnf(CodeVersion, p("vllm"), "set `vllm.version` to what `vllm --version` prints in your image",
			"vllm.version is not set: flags and defaults differ between vLLM releases, so vlaunch assumes the newest it knows (%s)", vllm.Newest())
		return
	}
	for _, w := range notes {
		c.warnf(CodeVersion, p("vllm", "version"), "", "%s", w)
	}
}

// checkBackend: all2all_backend is "auto" or a backend the release accepts.
func checkBackend(c *checker) {
	name := c.d.VLLM.All2AllBackend
	if name == "" || name == "auto" {
		return
	}
	checkBackendName(c, name, p("vllm", "all2all_backend"))
}

// checkBackendName: name is a backend vLLM knows, the release accepts it,
// and it does not silently fall back to another.
func checkBackendName(c *checker, name string, path []string) {
	b, known := vllm.KnownBackendEver(name)
	if !known {
		c.errorf(CodeBackend, path, backendHint(name), "unknown all2all backend %q", name)
		return
	}
	if !c.relOK {
		return
	}
	r := c.rel
	if _, in := r.All2AllBackend(name); !in {
		backendRefused(c, path, name, b.Span)
		return
	}
	if !b.Span.Confirmed.IsZero() && r.Version.Less(b.Span.Confirmed) {
		// Between "not before" and "first seen": vlaunch cannot tell.
		c.add(diag.Info, CodeBackend, path, "use vLLM "+b.Span.Confirmed.String()+" or later to be sure",
			"cannot verify that vLLM %s accepts all2all backend %q: first seen in %s (its first release is not known)", r, name, b.Span.Confirmed)
	}
	if b.FallsBack(r) {
		c.warnf(CodeBackend, path, "choose another backend, or `auto`",
			"vLLM %s accepts %q but falls back to %s", r, name, vllm.BackendAllgatherReducescatter)
	}
}

// backendRefused: the release does not have backend name. A release with
// no backend at all (before VLLM_ALL2ALL_BACKEND) is said so, not given an
// empty "accepted" list; the hint names the first release a source shows
// the backend in (its first release may be earlier, but is not known).
func backendRefused(c *checker, path []string, name string, s vllm.Span) {
	r := c.rel
	use := s.Since
	if !s.Confirmed.IsZero() {
		use = s.Confirmed
	}
	accepted := r.All2AllBackends()
	if len(accepted) == 0 {
		c.errorf(CodeBackend, path, fmt.Sprintf("leave all2all_backend out, or use vLLM %s or later", use),
			"vLLM %s has no all2all backend setting: no backend exists before %s (%q: %s)", r, firstBackendRelease(), name, spanText(s))
		return
	}
	c.errorf(CodeBackend, path, fmt.Sprintf("accepted: auto, %s; or use vLLM %s or later for %s", strings.Join(accepted, ", "), use, name),
		"vLLM %s does not accept all2all backend %q (%s)", r, name, spanText(s))
}

// firstBackendRelease is the first release with any all2all backend.
func firstBackendRelease() vllm.Version {
	for _, r := range vllm.Releases() {
		if len(r.All2AllBackends()) > 0 {
			return r.Version
		}
	}
	return vllm.Version{}
}

func backendHint(name string) string {
	var all []string
	for _, r := range vllm.Releases() {
		all = append(all, r.All2AllBackends()...)
	}
	sort.Strings(all)
	uniq := all[:0]
	for i, s := range all {
		if i == 0 || s != all[i-1] {
			uniq = append(uniq, s)
		}
	}
	if h := suggest(name, uniq); h != "" {
		return h
	}
	return "known backends: auto, " + strings.Join(uniq, ", ")
}

// spanText words a backend's span as lint and the generator do
// (resolve.SpanNote: "not before A; first seen in B" when its first
// release is not pinned).
func spanText(s vllm.Span) string { return resolve.SpanNote(s) }

// checkEnv: env keys are shell identifiers; env values and extra_args may
// hold anything the generator can quote, but not NUL or line breaks.
func checkEnv(c *checker) {
	keys := make([]string, 0, len(c.d.VLLM.Env))
	for k := range c.d.VLLM.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !envKeyRE.MatchString(k) {
			c.addAt(true, diag.Error, CodeEnv, p("vllm", "env", k), "use letters, digits and '_', not starting with a digit",
				"environment variable name %q is not valid in a shell", k)
		}
		if hasLineBreakOrNUL(c.d.VLLM.Env[k]) {
			c.errorf(CodeEnv, p("vllm", "env", k), "put the value on one line", "the value of %s contains a NUL or a line break", k)
		}
	}
	for i, a := range c.d.VLLM.ExtraArgs {
		if hasLineBreakOrNUL(a) {
			c.errorf(CodeEnv, p("vllm", "extra_args", i), "one argument per list item, on one line", "extra argument %q contains a NUL or a line break", a)
		}
	}
}
