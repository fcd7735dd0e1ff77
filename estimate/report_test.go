package estimate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestReportJSONHasTheContract(t *testing.T) {
	in := loadExample(t, "deepseek-v3-32xh20.yaml")
	r := Check(&in)
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Memory struct {
			PerGPU map[string]float64 `json:"per_gpu"`
			BPT    int64              `json:"kv_bytes_per_token"`
			Tokens int64              `json:"kv_tokens_per_rank"`
			Conc   *float64           `json:"max_concurrency_at_max_model_len"`
		} `json:"memory"`
		Findings []map[string]string `json:"findings"`
		Feasible *bool               `json:"feasible"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"weights_gib", "kv_cache_gib", "activation_gib", "other_gib", "usable_gib", "device_gib"} {
		if _, ok := doc.Memory.PerGPU[k]; !ok {
			t.Errorf("memory.per_gpu.%s missing", k)
		}
	}
	if doc.Memory.BPT != 70272 || doc.Memory.Tokens <= 0 || doc.Memory.Conc == nil || doc.Feasible == nil || *doc.Feasible {
		t.Errorf("memory = %+v feasible = %v", doc.Memory, doc.Feasible)
	}
	if len(doc.Findings) == 0 || doc.Findings[0]["code"] == "" || doc.Findings[0]["severity"] != "error" || doc.Findings[0]["hint"] == "" {
		t.Errorf("findings = %v", doc.Findings)
	}
}

func TestReportTextShowsEveryTerm(t *testing.T) {
	in := loadExample(t, "deepseek-v3-32xh20.yaml")
	r := Check(&in)
	var text, md bytes.Buffer
	r.WriteText(&text)
	r.WriteMarkdown(&md)
	for _, want := range []string{"70,272", "37.55B parameters", "ceil(200/32) = 7", "16.1 GB", "124,928", "routed_experts", "fused-MoE workspace",
		"checkpoint as shipped", "DOES NOT FIT", "EST103", "feasible: no"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	for _, want := range []string{"| term | GiB | derivation |", "**Feasible: no**", "## Notes", "| fp8 | checkpoint as shipped |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown report lacks %q", want)
		}
	}
}

func TestCheckFeasibleWhenItFits(t *testing.T) {
	in := quick(t, QuickOptions{Model: "llama-3.1-8b", GPU: "h100", MaxModelLen: 8192, Concurrency: 10})
	r := Check(in)
	if !r.Feasible || r.Findings.HasErrors() {
		t.Errorf("Llama-3.1-8B on one H100 must fit 10 × 8K: %v", r.Findings)
	}
	in = quick(t, QuickOptions{Model: "llama-3.1-405b", GPU: "h100", TP: 8, MaxModelLen: 8192})
	r = Check(in)
	if r.Feasible || len(r.Findings) == 0 || r.Findings[0].Code != CodeNoKVMemory {
		t.Errorf("405B BF16 on 8 × H100 cannot hold its weights: %v", r.Findings)
	}
}
