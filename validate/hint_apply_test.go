package validate

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestHintsLeadToAValidSpec (QA41 D10): a hint that proposes an edit must
// not lead into the next error. Each case breaks a clean spec, checks the
// diagnostic and that its hint says the edit, then applies that edit to the
// clean spec's text and validates: no error may remain. SPEC105 (replace
// model.name with model.config) and SPEC005 (inter_node kind nvlink, use
// nvlink_domain) are applied the same way in
// cmd/vlaunch/testdata/script/qa41_hints.txtar (they need a config file
// and a multi-node GB200 spec).
func TestHintsLeadToAValidSpec(t *testing.T) {
	base := readBase(t)
	pd, err := os.ReadFile("testdata/specs/SPEC137/pd-top-level.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The P/D spec without its top-level router: clean.
	pdClean := strings.Replace(string(pd), "router:\n  policy: cache_aware  # want SPEC137@3\n", "", 1)
	// Two GB200 trays in one NVLink domain.
	trays := `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: trays}
model: {name: llama-3.1-70b}
hardware:
  gpu: gb200
  nodes:
    - {name: a, address: 10.0.0.1, gpus: 4, interface: eth0}
    - {name: b, address: 10.0.0.2, gpus: 4, interface: eth0}
  network:
    inter_node: {kind: infiniband}
    nvlink_domain: {gpus: 72}
parallelism: {tensor: 8}
vllm: {version: "0.25.0"}
`
	cases := []struct {
		name string
		code diag.Code
		hint string // what the hint must say
		bad  string // the broken spec
		good string // bad with the hint's edit applied
	}{{
		name: "draft_model method without draft_model: path and architecture in one edit",
		code: CodeSpeculative, hint: "add draft_model: {path: <hub id or path of the proposer>, name: <catalog id>}",
		bad: edit(t, base, "  extra_args:", "  speculative: {method: draft_model, num_speculative_tokens: 2, mean_acceptance_length: 2}\n  extra_args:",
			"name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16", "expert: true", "expert: false"),
		good: edit(t, base, "  extra_args:", "  speculative: {method: draft_model, num_speculative_tokens: 2, mean_acceptance_length: 2, draft_model: {path: /models/draft, name: qwen3-8b}}\n  extra_args:",
			"name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16", "expert: true", "expert: false"),
	}, {
		name: "eagle3 without draft_model: the path is enough",
		code: CodeSpeculative, hint: "add draft_model: {path: <hub id or path of the proposer>}",
		bad:  edit(t, base, "  extra_args:", "  speculative: {method: eagle3, num_speculative_tokens: 2}\n  extra_args:"),
		good: edit(t, base, "  extra_args:", "  speculative: {method: eagle3, num_speculative_tokens: 2, draft_model: {path: some-org/DeepSeek-V3-EAGLE3}}\n  extra_args:"),
	}, {
		name: "mtp on a model without MTP layers: eagle3 with its head",
		code: CodeSpeculative, hint: "use method eagle3 with an EAGLE head for this model (draft_model: {path: <its hub id or path>})",
		bad: edit(t, base, "name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16", "expert: true", "expert: false",
			"  extra_args:", "  speculative: {method: mtp, num_speculative_tokens: 1}\n  extra_args:"),
		good: edit(t, base, "name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16", "expert: true", "expert: false",
			"  extra_args:", "  speculative: {method: eagle3, num_speculative_tokens: 1, draft_model: {path: some-org/Qwen3-14B-EAGLE3}}\n  extra_args:"),
	}, {
		name: "mtp on a model without MTP layers: ngram with its acceptance",
		code: CodeSpeculative, hint: "or method ngram with mean_acceptance_length",
		bad: edit(t, base, "name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16", "expert: true", "expert: false",
			"  extra_args:", "  speculative: {method: mtp, num_speculative_tokens: 1}\n  extra_args:"),
		good: edit(t, base, "name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16", "expert: true", "expert: false",
			"  extra_args:", "  speculative: {method: ngram, num_speculative_tokens: 1, mean_acceptance_length: 1.5}\n  extra_args:"),
	}, {
		name: "P/D with a top-level router that has a policy: move it without the policy",
		code: CodeRouter, hint: "without `policy`",
		bad:  string(pd),
		good: pdClean,
	}, {
		name: "P/D router policy: remove it",
		code: CodeRouter, hint: "remove it",
		bad:  edit(t, pdClean, "router: {kind: vllm-router, node: node0, port: 8000}", "router: {kind: vllm-router, node: node0, port: 8000, policy: round_robin}"),
		good: pdClean,
	}, {
		name: "expert parallel on a dense model: remove expert: true",
		code: CodeExpert, hint: "remove `expert: true`",
		bad:  edit(t, base, "name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16"),
		good: edit(t, base, "name: deepseek-v3\n", "name: qwen3-14b\n", "weights: fp8", "weights: bf16", "  expert: true\n", ""),
	}, {
		name: "data does not use every GPU: set the data the hint names",
		code: CodeLayout, hint: "set `data: 16`",
		bad:  edit(t, base, "data: 16", "data: 8"),
		good: base,
	}, {
		name: "a router in front of one engine: remove router",
		code: CodeRouter, hint: "remove router",
		bad: edit(t, base, "    - {name: node1, address: 10.0.0.2, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n", "",
			"tensor: 1", "tensor: 8", "data: 16", "data: 1", "runtime:", "router: {kind: vllm-router, node: node0, port: 30000}\nruntime:"),
		good: edit(t, base, "    - {name: node1, address: 10.0.0.2, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n", "",
			"tensor: 1", "tensor: 8", "data: 16", "data: 1"),
	}, {
		name: "a P/D router key on the colocated router: remove it",
		code: CodeRouter, hint: "remove it",
		bad:  edit(t, base, "runtime:", "router: {kind: vllm-router, node: node0, port: 30000, decode_port: 8200}\nruntime:"),
		good: edit(t, base, "runtime:", "router: {kind: vllm-router, node: node0, port: 30000}\nruntime:"),
	}, {
		name: "arrival_burstiness without an arrival rate: drop it",
		code: CodeValue, hint: "or drop arrival_burstiness",
		bad:  edit(t, base, "  concurrency: 64\n", "  concurrency: 64\n  arrival_burstiness: 2\n"),
		good: base,
	}, {
		name: "client_max_concurrency without an arrival rate: drop it, keep concurrency",
		code: CodeValue, hint: "drop client_max_concurrency and give concurrency",
		bad:  edit(t, base, "  concurrency: 64\n", "  concurrency: 64\n  client_max_concurrency: 32\n"),
		good: base,
	}, {
		name: "nvlink_domain on a GPU without one: remove it",
		code: CodeNVLinkDomain, hint: "remove nvlink_domain",
		bad:  edit(t, base, "    inter_node:", "    nvlink_domain: {}\n    inter_node:"),
		good: base,
	}, {
		name: "an NVLink domain larger than a rack: give the rack's GPUs",
		code: CodeNVLinkDomain, hint: "give gpus: 72",
		bad:  edit(t, trays, "gpus: 72}", "gpus: 144}"),
		good: trays,
	}, {
		name: "an NVLink domain splitting a tray: a whole number of nodes' GPUs",
		code: CodeNVLinkDomain, hint: "give a whole number of nodes' GPUs",
		bad:  edit(t, trays, "gpus: 72}", "gpus: 6}"),
		good: edit(t, trays, "gpus: 72}", "gpus: 8}"),
	}, {
		name: "a token in vllm.env: remove it",
		code: CodeSecret, hint: "remove it",
		bad:  edit(t, base, "    NCCL_DEBUG: INFO\n", "    NCCL_DEBUG: INFO\n    HF_TOKEN: hf_abcdefghijklmnopqrstuvwxyz0123456789\n"),
		good: base,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var found bool
			ds := mustBytes(t, "bad.yaml", tc.bad)
			for _, d := range ds {
				found = found || (d.Code == tc.code && d.Severity == diag.Error && strings.Contains(d.Hint, tc.hint))
			}
			if !found {
				t.Fatalf("no %s error whose hint says %q:\n%s", tc.code, tc.hint, render(ds))
			}
			if errs := errorsOf(mustBytes(t, "good.yaml", tc.good)); len(errs) > 0 {
				t.Errorf("the spec with the hint applied still has errors:\n%s", render(errs))
			}
		})
	}
}

// errorsOf keeps the error diagnostics.
func errorsOf(ds diag.Diagnostics) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}
