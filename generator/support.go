package generator

import (
	"fmt"
	"github.com/vlaunch/vlaunch/diag/codes"
	"strconv"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// CodeUnsupported marks a spec setting the chosen vLLM release cannot express.
const CodeUnsupported = codes.GenUnsupported

// checkReleaseSupport reports spec settings that need a flag (or a flag
// value) the release does not have, before any command is built.
func checkReleaseSupport(d *spec.Deployment, r vllm.Release) diag.Diagnostics {
	var ds diag.Diagnostics
	need := func(on bool, path, flag, value string) {
		if !on {
			return
		}
		// Only flags a source confirms for the release go into a bundle.
		f, ok := r.CertainFlag(flag)
		switch {
		case !ok:
			ds = append(ds, gdiag(d, CodeUnsupported, diag.Error, path,
				fmt.Sprintf("vLLM %s has no --%s%s", r.Version, flag, sinceNote(flag)), "remove the setting or change vllm.version"))
		case value != "" && !f.HasChoice(value):
			ds = append(ds, gdiag(d, CodeUnsupported, diag.Error, path,
				fmt.Sprintf("vLLM %s does not accept --%s %s", r.Version, flag, value), fmt.Sprintf("choose one of %v", f.Choices)))
		}
	}
	v := d.VLLM
	need(v.EnableDBO, "vllm.enable_dbo", "enable-dbo", "")
	need(v.EnableEPLB, "vllm.enable_eplb", "enable-eplb", "")
	if v.NumRedundantExperts > 0 {
		if _, ok := r.Flag("eplb-config"); !ok {
			need(true, "vllm.num_redundant_experts", "num-redundant-experts", "")
		}
	}
	need(v.KVCacheDType != "" && v.KVCacheDType != "auto", "vllm.kv_cache_dtype", "kv-cache-dtype", v.KVCacheDType)
	if v.BlockSize != nil {
		need(true, "vllm.block_size", "block-size", strconv.Itoa(*v.BlockSize))
	}
	if v.APIServerCount != nil {
		if _, ok := r.Flag("api-server-count"); !ok {
			ds = append(ds, gdiag(d, CodeUnsupported, diag.Warning, "vllm.api_server_count",
				fmt.Sprintf("vLLM %s has no --api-server-count; it always runs one API server", r.Version), ""))
		}
	}
	return ds
}

// sinceNote says when a flag exists, if it ever did, over all of its
// table entries (an entry of its newest choices starts later than the flag).
func sinceNote(flag string) string {
	since, removed, ok := vllm.FlagFirstSince(flag)
	if !ok {
		return ""
	}
	if removed.IsZero() {
		return fmt.Sprintf(" (added in %s)", since)
	}
	return fmt.Sprintf(" (it exists from %s until %s)", since, removed)
}

// layoutFlags are the flags each layout's commands use, beyond the common
// ones: a release without one of them cannot run the layout.
var layoutFlags = map[string][]string{
	LayoutDP:     {"data-parallel-size-local", "data-parallel-address", "data-parallel-rpc-port", "headless", "data-parallel-start-rank"},
	LayoutNNodes: {"nnodes", "node-rank", "master-addr", "master-port", "headless"},
	LayoutRay:    {"distributed-executor-backend"},
}

// checkLayoutSupport reports a layout the release cannot express (expert
// parallelism or DP before they existed, multi-node DP before --headless)
// as the spec's problem, before any command is built.
func checkLayoutSupport(d *spec.Deployment, p *Plan) diag.Diagnostics {
	var ds diag.Diagnostics
	need := func(on bool, path, flag string) {
		if _, ok := p.Release.Flag(flag); on && !ok {
			ds = append(ds, gdiag(d, CodeUnsupported, diag.Error, path,
				fmt.Sprintf("vLLM %s has no --%s%s, which this layout (%s) needs", p.Release.Version, flag, sinceNote(flag), p.Layout),
				"change the layout or vllm.version"))
		}
	}
	need(p.EP, "parallelism.expert", "enable-expert-parallel")
	need(p.DP > 1, "parallelism.data", "data-parallel-size")
	for _, f := range layoutFlags[p.Layout] {
		need(true, "parallelism", f)
	}
	return ds
}
