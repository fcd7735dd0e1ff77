package generator

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// specArgs writes speculative decoding the way the release takes it:
// --speculative-config JSON where a source confirms the flag (0.8.2 on),
// with the release's method name (deepseek_mtp before 0.11.0, mtp from
// it); before, --speculative-model and --num-speculative-tokens, which
// name a draft checkpoint (draft_model only; checkSpeculativeSupport
// refuses the rest first).
func specArgs(a *argList, s *resolve.Speculative) {
	if s == nil {
		return
	}
	if _, ok := a.r.CertainFlag("speculative-config"); ok {
		a.flag("speculative-config", specConfigJSON(s))
		return
	}
	a.flag("speculative-model", s.DraftPath)
	a.flag("num-speculative-tokens", itoa(s.NumTokens))
}

// specConfigJSON is the --speculative-config value, keys in a fixed order.
func specConfigJSON(s *resolve.Speculative) string {
	var b strings.Builder
	m, _ := json.Marshal(s.VLLMMethod)
	fmt.Fprintf(&b, `{"method":%s`, m)
	if s.DraftPath != "" {
		p, _ := json.Marshal(s.DraftPath)
		fmt.Fprintf(&b, `,"model":%s`, p)
	}
	fmt.Fprintf(&b, `,"num_speculative_tokens":%d}`, s.NumTokens)
	return b.String()
}

// checkSpeculativeSupport refuses speculative decoding the release cannot
// be given: a method its --speculative-config does not accept, or, before
// that flag is confirmed, anything but a draft model (validate reports the
// same as SPEC122 for commands; library callers get it here).
func checkSpeculativeSupport(d *spec.Deployment, r vllm.Release, s *resolve.Speculative) diag.Diagnostics {
	if s == nil {
		return nil
	}
	path := "vllm.speculative.method"
	if _, ok := r.CertainFlag("speculative-config"); ok {
		if r.Speculative().Accepts(s.VLLMMethod) == vllm.Absent {
			return diag.Diagnostics{gdiag(d, CodeUnsupported, diag.Error, path,
				fmt.Sprintf("vLLM %s's --speculative-config does not accept method %q", r.Version, s.VLLMMethod), "choose a method the release accepts")}
		}
		return nil
	}
	if _, ok := r.CertainFlag("speculative-model"); ok && s.Method == resolve.SpecDraftModel && s.DraftPath != "" {
		return nil
	}
	return diag.Diagnostics{gdiag(d, CodeUnsupported, diag.Error, path,
		fmt.Sprintf("vLLM %s has no confirmed --speculative-config; its --speculative-model flags take a draft checkpoint, not %s", r.Version, s.Method),
		"use vLLM 0.8.2 or newer, or method draft_model")}
}
