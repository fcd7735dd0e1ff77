package generator

import (
	"fmt"
	"strconv"

	"github.com/vlaunch/vlaunch/diag/codes"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
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
				resolve.MissingFlag(r, flag), "remove the setting or change vllm.version"))
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
