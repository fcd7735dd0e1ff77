package lint

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkTrustRemoteCode reports models that need --trust-remote-code (VL115).
func checkTrustRemoteCode(p *pass) {
	for _, s := range p.Servers {
		m := familyModel(s)
		if m == nil || !m.TrustRemoteCode || s.Has("trust-remote-code") {
			continue
		}
		sev, at := diag.Error, s.Inv.Pos
		if s.Model != nil {
			at = s.Model.Pos
		}
		if byServedName(s) { // the alias may not be the model the path holds
			sev = diag.Warning
			if v, ok := s.Str("served-model-name"); ok {
				at = v.Pos
			}
		}
		p.ReportAtSeverity(s.Inv, at, sev, "add --trust-remote-code", "%s ships its own model code; vLLM refuses to load it without --trust-remote-code", modelLabel(s, m))
	}
}

// checkKVDType reports a KV-cache dtype the model's attention cannot use (VL116).
func checkKVDType(p *pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("kv-cache-dtype")
		m := familyModel(s)
		if !ok || !v.Known || m == nil {
			continue
		}
		if v.Text == "fp8_ds_mla" && !m.IsMLA() {
			p.ReportAt(s.Inv, v.Pos, "use fp8 (or auto)", "--kv-cache-dtype fp8_ds_mla is the DeepSeek MLA format; %s does not use MLA attention", modelLabel(s, m))
		}
		if strings.HasPrefix(v.Text, "fp8") && v.Text != "fp8_ds_mla" && m.IsMLA() {
			checkMLAFP8(p, s, v, m)
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

// checkMLAFP8 reports an FP8 KV cache for an MLA model on an attention
// backend that refuses it in the release (vllm.MLAFP8KV: FlashMLA in V1 up to
// 0.8.5, "FlashMLA V1 with FP8 KV cache not yet supported!"). The backend is
// the one the command forces, else FlashMLA, the default on Hopper and
// Blackwell GPUs (then a warning: the GPU is assumed).
func checkMLAFP8(p *pass, s *server, v launch.Value, m *catalog.Model) {
	backend, forced := attentionBackend(s)
	if !forced {
		backend = vllm.MLAFlashMLA
	}
	if pr, _ := s.Rel.MLAFP8KV(backend); pr != vllm.Absent {
		return
	}
	sev := diag.Error
	assumed := ""
	if !forced {
		sev, assumed = diag.Warning, " (assuming a Hopper or Blackwell GPU, where it is the default)"
	}
	p.ReportAtSeverity(s.Inv, v.Pos, sev, "use --kv-cache-dtype auto, or a release or attention backend with FP8 MLA caches",
		"--kv-cache-dtype %s with %s (MLA attention): vLLM %s's %s backend%s does not support an FP8 KV cache", v.Text, modelLabel(s, m), s.Rel, backend, assumed)
}

// attentionBackend is the attention backend a command forces
// (--attention-backend, or VLLM_ATTENTION_BACKEND in a release that still
// reads it: none from 0.16.0).
func attentionBackend(s *server) (string, bool) {
	if v, ok := s.Str("attention-backend"); ok && v.Known {
		return strings.ToUpper(v.Text), true
	}
	if !s.Rel.ReadsAttentionBackendEnv() {
		return "", false
	}
	if e, ok := s.Inv.LookupEnv(vllm.AttentionBackendEnv); ok && e.Value.Known {
		return strings.ToUpper(e.Value.Text), true
	}
	return "", false
}
