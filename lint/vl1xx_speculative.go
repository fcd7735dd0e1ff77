package lint

import (
	"encoding/json"
	"math"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// maxSaneDrafts is the longest draft this rule accepts without a warning:
// with the highest published per-draft acceptance (DeepSeek MTP, about
// 0.85) the ninth draft is accepted under a quarter of the time, and every
// draft costs the target a verify position per sequence and step.
const maxSaneDrafts = 8

// draftMethods need a draft checkpoint ("model") in --speculative-config.
var draftMethods = map[string]bool{"eagle": true, "eagle3": true, "draft_model": true, "medusa": true, "mlp_speculator": true}

// checkSpeculative reports a --speculative-config whose method the release
// does not accept, a draft method without its "model", and a
// num_speculative_tokens that is not a positive integer, or long enough that
// its last drafts are almost never accepted (VL130). Invalid JSON is VL103's.
func checkSpeculative(p *pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("speculative-config")
		if !ok || !v.Known {
			continue
		}
		var cfg map[string]any
		if json.Unmarshal([]byte(strings.TrimSpace(v.Text)), &cfg) != nil {
			continue
		}
		syn := s.Rel.Speculative()
		method, _ := cfg["method"].(string)
		if method != "" && syn.Accepts(method) == vllm.Absent {
			p.ReportVersioned(s, v.Pos, "methods it accepts: "+strings.Join(sortedCopy(syn.Methods), ", "),
				"vLLM %s does not accept speculative method %q%s", s.Rel.Version, method, mtpRename(method, syn))
		}
		if _, hasModel := cfg["model"]; draftMethods[method] && !hasModel {
			p.ReportAt(s.Inv, v.Pos, `add "model": the draft checkpoint (a hub id or a path)`,
				"speculative method %q needs a draft checkpoint, and the JSON has no \"model\"", method)
		}
		checkDraftCount(p, s, v.Pos, cfg["num_speculative_tokens"])
	}
}

// checkDraftCount: num_speculative_tokens, when given, is a positive
// integer, and not so long that the last drafts are wasted.
func checkDraftCount(p *pass, s *server, pos launch.Pos, raw any) {
	if raw == nil {
		return
	}
	n, ok := raw.(float64)
	if !ok || n < 1 || n != math.Trunc(n) {
		p.ReportAt(s.Inv, pos, "a positive integer: the drafts per sequence per step",
			"num_speculative_tokens must be a positive integer, got %v", raw)
		return
	}
	if n > maxSaneDrafts {
		p.ReportAtSeverity(s.Inv, pos, diag.Warning, "2 to 5 drafts is the usual range",
			"num_speculative_tokens %d: even at DeepSeek MTP's published per-draft acceptance (≈0.85) draft %d is accepted %.0f%% of the time, and every draft costs the target a verify position per sequence and step",
			int(n), int(n), 100*math.Pow(0.85, n))
	}
}

// mtpRename points at the release's MTP spelling when the other one is used.
func mtpRename(method string, syn vllm.SpeculativeSyntax) string {
	if (method == "mtp" || method == "deepseek_mtp") && method != syn.MTPMethod && syn.Accepts(syn.MTPMethod) != vllm.Absent {
		return " (it names DeepSeek MTP " + `"` + syn.MTPMethod + `"` + ")"
	}
	return ""
}

func sortedCopy(ss []string) []string {
	out := append([]string(nil), ss...)
	sort.Strings(out)
	return out
}
