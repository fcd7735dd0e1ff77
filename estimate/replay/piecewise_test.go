package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/published"
)

// TestSGLangPiecewise pins when an SGLang row replays piecewise CUDA graphs
// for prefill (sglangPiecewise) and up to how many tokens
// (sglangPiecewiseTokens): from release 0.5.10 on, unless a flag the
// server disables them under is given; 2,048 tokens for an MLA model
// (server_args.py's MLA default), the chunked-prefill size otherwise, an
// explicit --piecewise-cuda-graph-max-tokens over both.
func TestSGLangPiecewise(t *testing.T) {
	row := func(name, version, flags string) published.Row {
		var r published.Row
		r.Engine.Name, r.Engine.Version, r.Engine.Flags = name, version, flags
		return r
	}
	for _, c := range []struct {
		r    published.Row
		want bool
	}{
		{row("sglang", "0.5.12", "--tp 8 --stream-interval 10"), true},
		{row("sglang", "0.5.10", ""), true},
		{row("sglang", "v0.5.12.post1", ""), true},
		{row("sglang", "0.6.0", ""), true},
		{row("sglang", "0.5.9", ""), false},
		{row("sglang", "0.4.10", ""), false},
		{row("sglang", "", ""), false},
		{row("sglang", "0.5.12", "--disable-piecewise-cuda-graph"), false},
		{row("sglang", "0.5.12", "--enable-dp-attention --dp 8"), false},
		{row("sglang", "0.5.12", "--moe-a2a-backend deepep"), false},
		{row("sglang", "0.5.12", "--moe-a2a-backend=none"), true},
		{row("sglang", "0.5.12", "--disaggregation-mode prefill"), false},
		{row("vllm", "0.11.0", ""), false},
		{row("nim", "1.10.0", ""), false},
	} {
		if got := sglangPiecewise(c.r); got != c.want {
			t.Errorf("%s %q %q: piecewise %v, want %v", c.r.Engine.Name, c.r.Engine.Version, c.r.Engine.Flags, got, c.want)
		}
	}
	on := engine{piecewise: true, batchTok: 16384}
	for _, c := range []struct {
		flags string
		e     engine
		mla   bool
		want  int
	}{
		{"", on, true, 2048},
		{"", on, false, 16384},
		{"--piecewise-cuda-graph-max-tokens 4096", on, true, 4096},
		{"", engine{batchTok: 16384}, true, 0},
	} {
		if got := sglangPiecewiseTokens(row("sglang", "0.5.12", c.flags), c.e, c.mla); got != c.want {
			t.Errorf("%q mla=%v piecewise=%v: %d tokens, want %d", c.flags, c.mla, c.e.piecewise, got, c.want)
		}
	}
}
