package validate

import (
	"fmt"
	"strings"
	"testing"
)

func TestBaseIsClean(t *testing.T) {
	expect(t, mustBytes(t, "base.yaml", readBase(t)))
}

// TestSchemaErrorPositions pins the line:col each kind of schema error maps
// to: unknown keys at the key, type/enum/range errors at the value,
// required keys at the parent mapping.
func TestSchemaErrorPositions(t *testing.T) {
	base := readBase(t)
	cases := []struct {
		name  string
		edits []string
		wants []want
	}{
		{"unknown top-level key", []string{"kind: Deployment", "kind: Deployment\nmetdata: {}"}, []want{errAt(CodeUnknownKey, "3:1")}},
		{"unknown nested key", []string{"  weights: fp8", "  weight: fp8"}, []want{errAt(CodeUnknownKey, "7:3")}},
		{"unknown key in flow node", []string{"gpus: 8, interface: eth0, rdma", "gpus: 8, iface: eth0, rdma"}, []want{errAt(CodeUnknownKey, "13:49"), warnAt(CodeNoInterface, "13:7")}},
		{"wrong type", []string{"concurrency: 64", "concurrency: many"}, []want{errAt(CodeType, "18:16")}},
		{"float for integer", []string{"concurrency: 64", "concurrency: 6.5"}, []want{errAt(CodeType, "18:16")}},
		{"unquoted version", []string{`version: "0.11.0"`, "version: 0.11"}, []want{errAt(CodeType, "32:12")}},
		{"enum", []string{"weights: fp8", "weights: int4"}, []want{errAt(CodeValue, "7:12")}},
		{"minimum", []string{"gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1", "gpus: 0, interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1"}, []want{errAt(CodeValue, "13:46")}},
		{"port range", []string{"port: 8000", "port: 80000"}, []want{errAt(CodeValue, "33:9")}},
		{"utilization above 1", []string{"  port: 8000", "  gpu_memory_utilization: 1.2\n  port: 8000"}, []want{errAt(CodeValue, "33:27")}},
		{"required at parent", []string{"    - {name: node0, address: 10.0.0.1, gpus: 8,", "    - {name: node0, gpus: 8,"}, []want{errAt(CodeRequired, "13:7")}},
		{"workload optional", []string{"workload:\n  concurrency: 64\n  max_model_len: 32768\n  input_tokens: 1024\n  output_tokens: 1024\n", ""}, nil},
		{"model needs name or config", []string{"  name: deepseek-v3\n", ""}, []want{errAt(CodeRequired, "6:3")}},
		{"model name and config", []string{"  name: deepseek-v3\n", "  name: deepseek-v3\n  config: c.json\n"}, []want{errAt(CodeRequired, "6:3")}},
		{"parallelism word", []string{"parallelism:\n  tensor: 1\n  pipeline: 1\n  data: 16\n  expert: true", "parallelism: manual"}, []want{errAt(CodeValue, "26:14")}},
		{"parallelism number", []string{"parallelism:\n  tensor: 1\n  pipeline: 1\n  data: 16\n  expert: true", "parallelism: 8"}, []want{errAt(CodeType, "26:14")}},
		{"gpu list", []string{"gpu: h20-96g", "gpu: [h20]"}, []want{errAt(CodeType, "11:8")}},
		{"parallelism auto", []string{"parallelism:\n  tensor: 1\n  pipeline: 1\n  data: 16\n  expert: true", "parallelism: auto"}, nil},
		{"apiVersion", []string{"vlaunch/v1", "vlaunch/v2"}, []want{errAt(CodeValue, "1:13")}},
		{"null section is absent", []string{"slo:\n  throughput_tokens_per_s: 5000\n  ttft:\n    - {input_tokens: 1024, p50_s: 0.5, p95_s: 1.0, p99_s: 1.5}", "slo:"}, nil},
		{"infinite number", []string{"throughput_tokens_per_s: 5000", "throughput_tokens_per_s: .inf"}, []want{errAt(CodeType, "23:28")}},
		{"non-string key", []string{"kind: Deployment", "kind: Deployment\n? [a, b]\n: c"}, []want{errAt(CodeType, "3:3")}},
		{"env value number ok", []string{"NCCL_DEBUG: INFO", "NCCL_IB_GID_INDEX: 3"}, nil},
		{"env value list", []string{"NCCL_DEBUG: INFO", "NCCL_DEBUG: [a]"}, []want{errAt(CodeType, "36:17")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expect(t, mustBytes(t, "s.yaml", edit(t, base, c.edits...)), c.wants...)
		})
	}
}

// TestTypeHints: the hint fits the field, not only the JSON types.
func TestTypeHints(t *testing.T) {
	base := readBase(t)
	cases := []struct{ old, new, hint string }{
		{"parallelism:\n  tensor: 1\n  pipeline: 1\n  data: 16\n  expert: true", "parallelism: 8", "parallelism: auto"},
		{`version: "0.11.0"`, "version: 0.11", "quote the value"},
		{"concurrency: 64", "concurrency: 64 sessions", "plain number"},
		{"gpu: h20-96g", "gpu: 5", "catalog id"},
	}
	for _, c := range cases {
		ds := mustBytes(t, "s.yaml", edit(t, base, c.old, c.new))
		if len(ds) == 0 || !strings.Contains(ds[0].Hint, c.hint) {
			t.Errorf("%s: want hint containing %q, got:\n%s", c.new, c.hint, render(ds))
		}
	}
}

func TestUnknownKeySuggestion(t *testing.T) {
	ds := mustBytes(t, "s.yaml", edit(t, readBase(t), "  tensor: 1", "  tensr: 1"))
	expect(t, ds, errAt(CodeUnknownKey, "27:3"))
	if ds[0].Hint != `did you mean "tensor"?` || ds[0].Path != "parallelism.tensr" {
		t.Errorf("hint %q path %q", ds[0].Hint, ds[0].Path)
	}
}

// TestAnchorsAndMerge: values reached through aliases and merge keys are
// checked, and errors point at where the value is written.
func TestAnchorsAndMerge(t *testing.T) {
	src := edit(t, readBase(t),
		"    - {name: node0, address: 10.0.0.1, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}",
		"    - &n {name: node0, address: 10.0.0.1, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}",
		"    - {name: node1, address: 10.0.0.2, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}",
		"    - {<<: *n, name: node1, address: 10.0.0.2, gpuz: 1}")
	expect(t, mustBytes(t, "s.yaml", src), errAt(CodeUnknownKey, "14:48"))
}

func TestAliasBombIsUnusable(t *testing.T) {
	src := "apiVersion: vlaunch/v1\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		src += fmt.Sprintf("%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", n, n, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = n
	}
	_, ds, err := Bytes("bomb.yaml", []byte(src))
	if !IsUnusable(err) || len(ds) != 1 || ds[0].Code != CodeSyntax {
		t.Fatalf("want one unusable SPEC001, got err=%v\n%s", err, render(ds))
	}
}

func TestTooBigIsUnusable(t *testing.T) {
	big := []byte("a: \"" + strings.Repeat("x", 5<<20) + "\"\n")
	_, ds, err := Bytes("big.yaml", big)
	if !IsUnusable(err) || len(ds) != 1 || ds[0].Code != CodeUnreadable {
		t.Fatalf("want unusable SPEC000, got err=%v\n%s", err, render(ds))
	}
}

func TestDeepNestingIsUnusable(t *testing.T) {
	deep := "a: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n"
	_, ds, err := Bytes("deep.yaml", []byte(deep))
	if !IsUnusable(err) || len(ds) != 1 || ds[0].Code != CodeSyntax {
		t.Fatalf("want unusable SPEC001, got err=%v\n%s", err, render(ds))
	}
}
