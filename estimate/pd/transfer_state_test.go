package pd

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// qa39Pools are the pools of testdata/qa39-qwen35-pd-nixl-2x8b200.yaml
// (Qwen3.5-397B, Gated DeltaNet, NIXL, vLLM 0.22.1) with edit applied to
// its text.
func qa39Pools(t *testing.T, edit func(string) string) (pre, dec input.Input) {
	t.Helper()
	const file = "testdata/qa39-qwen35-pd-nixl-2x8b200.yaml"
	y, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := testinput.FromYAML(t, file, edit(string(y)))
	return testinput.Pools(t, in.Resolved())
}

// The per-request state is priced in the transfer time, once per request:
// the QA39 spec's request moves 8,000 × 30,720 B of attention KV and
// 45 × 4,268,032 = 192,061,440 B of Gated DeltaNet state
// (TestHandoffStateQA39's derivation). Its decode pool is TP 8 on a node of
// 8 × 400 Gbit/s NICs: one transfer gets all eight, 8 × 50 = 400 GB/s, and
// each of the 8 decode ranks pulls its 24,007,680 B share of the state, so
// the state adds 8 × 24,007,680 B ÷ 400 GB/s = 0.480154 ms to the lone
// transfer, whatever the prompt (the same at 4,000 and 8,000 tokens);
// the attention part grows 8 × 15,360 B per token ÷ 400 GB/s.
func TestHandoffStateTime(t *testing.T) {
	pre, dec := qa39Pools(t, func(s string) string { return s })
	at := func(n int, state bool) Transfer {
		UseHandoffState = state
		defer func() { UseHandoffState = true }()
		return newTransfer(&pre, &dec, n, false, 1, 1)
	}
	const stateS = 8 * 24007680 / 400e9
	for _, n := range []int{4000, 8000} {
		on, off := at(n, true), at(n, false)
		if on.LinkGBytesPerS != 400 {
			t.Fatalf("link %.2f GB/s, want 400", on.LinkGBytesPerS)
		}
		if d := on.AloneS - off.AloneS; math.Abs(d-stateS) > 1e-12 {
			t.Errorf("%d tokens: the state adds %.6f ms to the lone transfer, want %.6f", n, 1e3*d, 1e3*stateS)
		}
		if on.PostS != off.PostS {
			t.Errorf("%d tokens: posting %.6f s with the state, %.6f without (no descriptor is priced for it)", n, on.PostS, off.PostS)
		}
		attn := on.LatencyS + on.PostS + 8*15360*float64(on.Tokens)/400e9
		if math.Abs(on.AloneS-attn-stateS) > 1e-12 {
			t.Errorf("%d tokens: alone %.6f ms, want %.6f (attention) + %.6f (state)", n, 1e3*on.AloneS, 1e3*attn, 1e3*stateS)
		}
	}
}

// The report's per-request line names what moves once per request, so that
// tokens × B/token + it make the request's bytes: 8,000 × 30,720 =
// 245,760,000 B + 192,061,440 B of state = 437,821,440 B.
func TestHandoffOncePerRequest(t *testing.T) {
	pre, dec := qa39Pools(t, func(s string) string { return s })
	tr := newTransfer(&pre, &dec, 8000, false, 1, 1)
	if got, want := tr.OncePerRequest(), " (192.1 MB of state once, the rest per token)"; got != want {
		t.Errorf("once per request %q, want %q", got, want)
	}
	if float64(tr.Tokens)*float64(tr.BytesPerToken)+tr.StateBytesPerRequest != tr.BytesPerRequest {
		t.Errorf("%d × %d + %.0f != %.0f", tr.Tokens, tr.BytesPerToken, tr.StateBytesPerRequest, tr.BytesPerRequest)
	}
	both := Transfer{StateBytesPerRequest: 1e6, WindowBytesPerRequest: 38.5e6}
	if got, want := both.OncePerRequest(), " (1.0 MB of state + 38.5 MB of sliding-window pages once, the rest per token)"; got != want {
		t.Errorf("both %q, want %q", got, want)
	}
	if got := (Transfer{BytesPerToken: 10}).OncePerRequest(); got != "" {
		t.Errorf("no per-request part: %q", got)
	}
}

// vLLM refuses P/D for a state model where the connector does not move the
// state: NixlConnector before #41869 (0.22.0) for Gated DeltaNet (vllm
// facts_pd_state.go, StateTransfer Absent at 0.21.0), MooncakeConnector
// before #46807 (0.25.0). The hand-off is then marked refused, first in its
// why, not priced as a transfer that happens; at 0.22.1 over NIXL it is
// not, and judging it again for NIXL after Mooncake drops the refusal.
func TestHandoffRefusalConnector(t *testing.T) {
	pre, dec := qa39Pools(t, func(s string) string { return s })
	ok := newTransfer(&pre, &dec, 8000, false, 1, 1)
	if ok.Refused != "" {
		t.Fatalf("NIXL 0.22.1 moves GDN state: refused %q", ok.Refused)
	}
	for _, w := range ok.Why {
		if strings.Contains(w, "state") && strings.Contains(w, "not known") {
			t.Errorf("NIXL 0.22.1: %q", w)
		}
	}
	moon := ok.withRefusal(&pre, &dec, "MooncakeConnector")
	if !strings.Contains(moon.Refused, "MooncakeConnector in vLLM 0.22.1 does not move the Gated DeltaNet layers' per-request state") ||
		!strings.HasPrefix(moon.describe(), "KV hand-off: ") || !strings.Contains(moon.describe(), "; no hand-off is possible, the figures are what it would move: MooncakeConnector") {
		t.Errorf("Mooncake 0.22.1: refused %q\n%s", moon.Refused, moon.describe())
	}
	back := moon.withRefusal(&pre, &dec, vllm.NixlConnectorName)
	if back.Refused != "" || len(back.Why) != len(ok.Why) {
		t.Errorf("judged again for NIXL: refused %q, why %d entries, want none and %d", back.Refused, len(back.Why), len(ok.Why))
	}
	// NIXL at 0.21.0: validate refuses the spec (SPEC127); the estimate
	// says so too for the inputs that reach it without validate.
	p21, d21 := qa39Pools(t, func(s string) string { return strings.ReplaceAll(s, "0.22.1", "0.21.0") })
	if d21.Release().Version.String() != "0.21.0" {
		t.Fatalf("release %s", d21.Release().Version)
	}
	if r := newTransfer(&p21, &d21, 8000, false, 1, 1).Refused; !strings.Contains(r, "NixlConnector in vLLM 0.21.0 does not move the Gated DeltaNet") {
		t.Errorf("NIXL 0.21.0: %q", r)
	}
	// A model without state layers is never refused.
	l := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100-sxm", TP: 8, PP: 1, DP: 1, KVCacheDType: "auto", Weights: "auto", Concurrency: 1, VLLMVersion: "0.19.0"})
	if r, n := handoffRefusal(l, l, "MooncakeConnector"); r != "" || n != nil {
		t.Errorf("llama: %q %v", r, n)
	}
}

// nemotronPools are the QA39 pools serving Nemotron-3-Nano (Mamba-2 state
// layers beside attention) in vLLM version with extra as vllm.extra_args.
func nemotronPools(t *testing.T, version, extra string) (pre, dec input.Input) {
	return qa39Pools(t, func(s string) string {
		s = strings.Replace(s, "  config: qwen3.5-397b-a17b.config.json\n  path: Qwen/Qwen3.5-397B-A17B", "  name: nemotron-3-nano-30b-a3b\n  path: /models/nemotron", 1)
		s = strings.ReplaceAll(s, "0.22.1", version)
		if extra != "" {
			s = strings.Replace(s, "vllm:\n  version:", "vllm:\n  extra_args: ["+extra+"]\n  version:", 1)
		}
		return s
	})
}

// NixlConnector moves Mamba-2 state from 0.20.0 (#37635), but a release
// before #41847 turns the hybrid KV cache manager off whenever
// --kv-transfer-config is set, and a MambaSpec cannot then be folded into
// one KV spec with attention: the engine stops at start-up unless it passes
// --no-disable-hybrid-kv-cache-manager (vllm.HybridKVWithConnector Absent
// before 0.21.0, Maybe at 0.21.x, Present from 0.22.0). An explicit
// --disable-hybrid-kv-cache-manager refuses it in every release.
func TestHandoffRefusalHybridKV(t *testing.T) {
	for _, c := range []struct {
		version, extra string
		refused, note  string
	}{
		{"0.20.0", "", "vLLM 0.20.0 turns the hybrid KV cache manager off when --kv-transfer-config is set (until #41847) and the prefill pool's engine does not pass --no-disable-hybrid-kv-cache-manager", ""},
		{"0.20.0", "--no-disable-hybrid-kv-cache-manager", "", ""},
		{"0.21.0", "", "", "whether vLLM 0.21.0 keeps the hybrid KV cache manager on with a KV connector is inferred"},
		{"0.22.1", "", "", ""},
		{"0.22.1", "--disable-hybrid-kv-cache-manager", "the prefill pool's engine passes --disable-hybrid-kv-cache-manager", ""},
	} {
		pre, dec := nemotronPools(t, c.version, c.extra)
		if dec.Model.MambaLayerCount() == 0 || dec.Release().Version.String() != c.version {
			t.Fatalf("%s: %d Mamba layers, release %s", c.version, dec.Model.MambaLayerCount(), dec.Release().Version)
		}
		tr := newTransfer(&pre, &dec, 4096, false, 1, 1)
		if (c.refused == "") != (tr.Refused == "") || !strings.Contains(tr.Refused, c.refused) {
			t.Errorf("%s %q: refused %q, want %q", c.version, c.extra, tr.Refused, c.refused)
		}
		if tr.StateBytesPerRequest <= 0 {
			t.Errorf("%s: no state priced", c.version)
		}
		noted := false
		for _, w := range tr.Why {
			noted = noted || (c.note != "" && strings.Contains(w, c.note))
		}
		if noted != (c.note != "") {
			t.Errorf("%s %q: note %q missing from %q", c.version, c.extra, c.note, tr.Why)
		}
	}
	// Off, the hand-off is priced as before whatever the release.
	UseHandoffRefusal = false
	defer func() { UseHandoffRefusal = true }()
	pre, dec := nemotronPools(t, "0.20.0", "")
	if tr := newTransfer(&pre, &dec, 4096, false, 1, 1); tr.Refused != "" {
		t.Errorf("UseHandoffRefusal off: refused %q", tr.Refused)
	}
}
