package resolve

import "github.com/vlaunch/vlaunch/vllm"

// Release resolves vllm.version (parsed here, once): the release in
// vlaunch's table, the version as the deployment states it, and warnings
// when the table has only a neighbouring release. An empty version means
// the newest release vlaunch knows (From assumed); an unparsable one is an
// error.
func Release(version string) (vllm.Release, Setting[string], []string, error) {
	if version == "" {
		r := vllm.Newest()
		return r, set(r.Version.String(), SourceAssumed, "vLLM version not given: assuming "+r.Version.String()), nil, nil
	}
	r, warns, err := vllm.ResolveString(version)
	if err != nil {
		return vllm.Release{}, Setting[string]{}, nil, err
	}
	return r, set(version, SourceSpec, ""), warns, nil
}
