package lint

import (
	"path"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// modelFor finds the served model in the catalog by repo id or directory name.
func modelFor(s *server) *catalog.Model {
	if s.Model == nil || !s.Model.Known {
		return nil
	}
	name := strings.TrimRight(s.Model.Text, "/")
	for _, m := range catalog.Models() {
		if strings.EqualFold(m.HFRepo, name) || strings.EqualFold(path.Base(m.HFRepo), path.Base(name)) {
			return m
		}
	}
	return nil
}

// checkTrustRemoteCode reports models that need --trust-remote-code (VL115).
func checkTrustRemoteCode(p *pass) {
	for _, s := range p.Servers {
		m := modelFor(s)
		if m == nil || !m.TrustRemoteCode || s.Has("trust-remote-code") {
			continue
		}
		p.ReportAt(s.Inv, s.Model.Pos, "add --trust-remote-code", "%s ships its own model code; vLLM refuses to load it without --trust-remote-code", m.HFRepo)
	}
}

// checkKVDType reports a KV-cache dtype the model's attention cannot use (VL116).
func checkKVDType(p *pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("kv-cache-dtype")
		m := modelFor(s)
		if !ok || !v.Known || m == nil {
			continue
		}
		if v.Text == "fp8_ds_mla" && !m.IsMLA() {
			p.ReportAt(s.Inv, v.Pos, "use fp8 (or auto)", "--kv-cache-dtype fp8_ds_mla is the DeepSeek MLA format; %s does not use MLA attention", m.HFRepo)
		}
	}
}

// parseHumanInt reads 32768, 32k (1000s), 32K (1024s), 2M.
func parseHumanInt(t string) (int, bool) {
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k"):
		mult = 1e3
	case strings.HasSuffix(t, "K"):
		mult = 1024
	case strings.HasSuffix(t, "m"):
		mult = 1e6
	case strings.HasSuffix(t, "M"):
		mult = 1024 * 1024
	}
	if mult != 1 {
		t = t[:len(t)-1]
	}
	x, err := strconv.ParseFloat(t, 64)
	return int(x * mult), err == nil
}

// checkMaxModelLen reports a context longer than the model supports (VL117).
func checkMaxModelLen(p *pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("max-model-len")
		m := modelFor(s)
		if !ok || !v.Known || m == nil || m.MaxPositionEmbeddings == 0 || s.Flag("hf-overrides") != nil || s.Flag("rope-scaling") != nil {
			continue
		}
		n, ok := parseHumanInt(v.Text)
		if !ok || n <= m.MaxPositionEmbeddings {
			continue
		}
		if e, set := s.Inv.LookupEnv("VLLM_ALLOW_LONG_MAX_MODEL_LEN"); set && e.Value.Text == "1" {
			continue
		}
		p.ReportAt(s.Inv, v.Pos, "lower it, or set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 if the model really extrapolates", "--max-model-len %d exceeds %s's max_position_embeddings (%d); vLLM refuses to start", n, m.HFRepo, m.MaxPositionEmbeddings)
	}
}
