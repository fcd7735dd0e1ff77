package estimate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
)

// A Gated DeltaNet hybrid's block_size setting says the attention block
// vLLM runs (qa43 F9: Qwen3.5-397B on MI355X said "block_size 16 — vLLM
// 0.24.0 default" above notes naming 528): the value stays the engine
// argument (generate's, the estimate's units), its provenance names
// memory's HybridBlock, and the input's own list is left as it was. A
// model without state keeps its block_size as resolved.
func TestSettingsShowTheHybridBlock(t *testing.T) {
	blockOf := func(settings []resolve.NamedSetting) resolve.NamedSetting {
		for _, s := range settings {
			if s.Name == "block_size" {
				return s
			}
		}
		t.Fatal("no block_size setting")
		return resolve.NamedSetting{}
	}
	d, ds, err := validate.File(filepath.Join("..", "examples", "qwen3-next-80b-a3b-2xh200.yaml"))
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	in := FromResolved(d)
	r := Check(&in)
	hb := r.Memory.KV.HybridBlock
	if hb <= in.BlockSize {
		t.Fatalf("Qwen3-Next's hybrid block %d is not above block_size %d: the example no longer exercises the raise", hb, in.BlockSize)
	}
	if got := blockOf(r.Input.Settings); got.Value != in.BlockSize || !strings.Contains(got.Why, fmt.Sprintf("vLLM raises the attention block to %d tokens", hb)) {
		t.Errorf("report's block_size = %v (%q), want %d saying vLLM raises it to %d", got.Value, got.Why, in.BlockSize, hb)
	}
	if got := blockOf(in.Settings); got.Value != in.BlockSize {
		t.Errorf("the input's own settings were edited: block_size %v", got.Value)
	}

	d, ds, err = validate.File(filepath.Join("..", "examples", "llama-3.1-70b-8xa100.yaml"))
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	in = FromResolved(d)
	if got := blockOf(Check(&in).Input.Settings); got.Value != in.BlockSize || strings.Contains(got.Why, "raises") {
		t.Errorf("Llama's block_size = %v (%q), want %d as resolved", got.Value, got.Why, in.BlockSize)
	}
}
