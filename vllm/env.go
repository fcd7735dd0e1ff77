package vllm

// EnvVar is one environment variable that matters for launching vLLM.
type EnvVar struct {
	Name string
	// Owner is "vllm" for variables vLLM reads, otherwise the library that
	// reads it ("nccl", "gloo", "nvshmem", "huggingface"). Non-vLLM variables
	// have no version span.
	Owner string
	Span
	// Deprecated names the release from which vLLM warns about it.
	Deprecated Version
	Choices    []string
	Default    string
	// Secret variables are never written into generated files.
	Secret   bool
	Doc      string
	Verified bool
	Source   string
}

// Env looks up a variable valid in this release. Variables not owned by
// vLLM are valid in every release.
func (r Release) Env(name string) (*EnvVar, bool) {
	for i := len(envTable) - 1; i >= 0; i-- {
		e := &envTable[i]
		if e.Name == name && (e.Owner != "vllm" || e.Contains(r.Version)) {
			return e, true
		}
	}
	return nil, false
}

// KnownEnvEver finds a variable in any release (newest entry first).
func KnownEnvEver(name string) (*EnvVar, bool) {
	for i := len(envTable) - 1; i >= 0; i-- {
		if envTable[i].Name == name {
			return &envTable[i], true
		}
	}
	return nil, false
}

// EnvVars lists the variables valid in this release, in table order.
func (r Release) EnvVars() []*EnvVar {
	var out []*EnvVar
	for i := range envTable {
		e := &envTable[i]
		if e.Owner != "vllm" || e.Contains(r.Version) {
			out = append(out, e)
		}
	}
	return out
}
