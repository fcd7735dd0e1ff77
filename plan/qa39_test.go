package plan

import (
	"strings"
	"testing"
)

// TestPDComparedLikeWithLike: on qa39's Qwen3.5-397B P/D spec (2 × 8
// B200, BF16 weights and KV), the P/D pools keep the spec's formats, so
// the line that says whether P/D pays compares the best P/D candidate
// with the best colocated one of the same formats, names them, and names
// the FP8 colocated winner apart as formats P/D was not tried with. It
// compared the FP8 colocated #2 against the BF16 P/D as if alike (qa39
// finding 1).
func TestPDComparedLikeWithLike(t *testing.T) {
	d, path, src := pdSpec(t, "qa39/qwen35-pd-nixl-2x8b200")
	r := Plan(d, Options{Seed: 1, File: path, Source: src})
	line := r.PD.NoPay
	if !strings.Contains(line, "weights bf16 · KV bf16") {
		t.Errorf("the P/D line does not name the formats compared: %q", line)
	}
	if r.Top[0].Weights != "auto" && !strings.Contains(line, "not tried with") {
		t.Errorf("#1 runs weights %s but the P/D line does not say P/D was not tried with them: %q", r.Top[0].Weights, line)
	}
}
