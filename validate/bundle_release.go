package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// releaseSupport reports spec settings that need a flag (or a flag
// value) the release does not have (GEN011), before any command is built.
func releaseSupport(d *spec.Deployment, r vllm.Release) diag.Diagnostics {
	var ds diag.Diagnostics
	need := func(on bool, path, flag, value string) {
		if !on {
			return
		}
		// Only flags a source confirms for the release go into a bundle.
		f, ok := r.CertainFlag(flag)
		switch {
		case !ok:
			ds = append(ds, bundleDiag(d, codes.GenUnsupported, diag.Error, path,
				resolve.MissingFlag(r, flag), "remove the setting or change vllm.version"))
		case value != "" && !f.HasChoice(value):
			ds = append(ds, bundleDiag(d, codes.GenUnsupported, diag.Error, path,
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
			ds = append(ds, bundleDiag(d, codes.GenUnsupported, diag.Warning, "vllm.api_server_count",
				fmt.Sprintf("vLLM %s has no --api-server-count; it always runs one API server", r.Version), ""))
		}
	}
	return ds
}

// dboProblem: vLLM asserts at config time that micro-batching (DBO) runs on
// a backend it supports (vllm.DBORequirement: DeepEP only), so an engine
// with DBO on any other backend — or on no all-to-all at all — would not
// start (GEN004). Whether the release has --enable-dbo is releaseSupport's
// (GEN011): on a release without it there is no assertion to quote, so
// GEN004 stays silent (it said "vLLM 0.10.1 refuses enable_dbo with …" of
// a release that has no DBO at all; verify39).
func dboProblem(r *resolve.Deployment) diag.Diagnostics {
	d := r.Spec
	if !d.VLLM.EnableDBO {
		return nil
	}
	if _, ok := r.Release.CertainFlag("enable-dbo"); !ok {
		return nil
	}
	req := r.Release.DBORequirement()
	got := r.Engine.All2All.Value
	if req.Accepts(got) {
		return nil
	}
	if got == "" {
		got = "none (the all-to-all kernels only run with DP > 1 and expert parallelism)"
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenAll2All, diag.Error, "vllm.enable_dbo",
		fmt.Sprintf("vLLM %s refuses enable_dbo with all-to-all backend %s: %s asserts %s (%q)",
			r.Release.Version, got, req.Where, strings.Join(req.Backends, " or "), vllm.DBOMessage),
		fmt.Sprintf("use expert parallelism with DP > 1 and vllm.all2all_backend: %s, or drop enable_dbo", req.Backends[0]))}
}
