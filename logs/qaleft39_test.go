package logs

import (
	"fmt"
	"strings"
	"testing"
)

// pipPreamble is a container start-up's install output ahead of vLLM's
// own log (the entrypoint's "pip install -r requirements.txt" with every
// requirement already met), at least n bytes: pip's "Requirement already
// satisfied: NAME in DIR (from PARENT) (VERSION)" lines, of many widths
// (the names and parents vary; some longer than the wrapped log's 147
// columns, so that width is not the longest), none of them a log line.
func pipPreamble(n int) string {
	names := []string{"numpy", "torch", "transformers", "tokenizers", "huggingface-hub", "safetensors", "regex",
		"requests", "urllib3", "idna", "certifi", "charset-normalizer", "filelock", "fsspec", "packaging", "pyyaml",
		"tqdm", "typing-extensions", "sympy", "mpmath", "networkx", "jinja2", "markupsafe", "triton", "setuptools",
		"pydantic", "pydantic-core", "annotated-types", "fastapi", "starlette", "anyio", "sniffio", "uvicorn", "h11",
		"click", "prometheus-client", "psutil", "sentencepiece", "protobuf", "aiohttp", "aiosignal", "frozenlist",
		"multidict", "yarl", "attrs", "msgspec", "pyzmq", "cloudpickle", "openai", "distro", "jiter", "httpx",
		"httpcore", "xgrammar", "outlines-core", "lm-format-enforcer", "interegular", "partial-json-parser"}
	parents := []string{"vllm==0.10.1.1", "torch==2.7.1->vllm==0.10.1.1", "transformers>=4.55.0->vllm==0.10.1.1",
		"fastapi[standard]>=0.115.0->vllm==0.10.1.1", "openai>=1.99.1->vllm==0.10.1.1", "aiohttp->vllm==0.10.1.1",
		"huggingface-hub<1.0,>=0.34.0->transformers>=4.55.0->vllm==0.10.1.1", "pydantic>=2.10->vllm==0.10.1.1",
		"requests>=2.26.0->vllm==0.10.1.1", "starlette<0.48.0,>=0.40.0->fastapi[standard]>=0.115.0->vllm==0.10.1.1",
		"httpx<1,>=0.23.0->openai>=1.99.1->vllm==0.10.1.1"}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "Requirement already satisfied: %s in /usr/local/lib/python3.12/dist-packages (from %s) (%d.%d.%d)\n",
			names[i%len(names)], parents[(i/len(names)+i)%len(parents)], i%3, i%17, i%11)
	}
	return b.String()
}

// TestWrappedAfterLongPreamble (QA left 39 #4): the hard-wrapped Ray log
// of TestWrappedRayLog behind a 70 KiB pip preamble. The wrap was looked
// for in the first 64 KiB only (all preamble), so the cut arguments and
// Ray address were read cut; the reader now keeps looking as it reads.
func TestWrappedAfterLongPreamble(t *testing.T) {
	var body []byte
	for _, fx := range loadFixtures(t) {
		if fx.name == "v0.10.1.1-dennislee22-qwen2-7b-ray-wrapped" {
			body = fx.files[0].Data
		}
	}
	pre := pipPreamble(70 << 10)
	if len(pre) <= pasteHeadBytes {
		t.Fatalf("preamble %d bytes, want > %d", len(pre), pasteHeadBytes)
	}
	rep := analyzeStrings(t, map[string]string{"node0.log": pre + string(body)}, "node0.log")
	if len(rep.Engines) != 1 {
		t.Fatalf("%d engines, want 1", len(rep.Engines))
	}
	e := rep.Engines[0]
	if e.TP == nil || *e.TP != 2 {
		t.Errorf("TP %v, want 2", e.TP)
	}
	if got := e.Addresses["ray_address"]; got != "10.254.5.36:6379" {
		t.Errorf("ray_address %q, want 10.254.5.36:6379 (joined across the wrap)", got)
	}
	if got := e.Args["model"]; got != "Qwen2-7B-Instruct" {
		t.Errorf("args model %q, want Qwen2-7B-Instruct (joined across the wrap)", got)
	}
	if e.WeightsSeconds == nil || *e.WeightsSeconds != 198.942282 {
		t.Errorf("weights seconds %v, want 198.942282", e.WeightsSeconds)
	}
}
