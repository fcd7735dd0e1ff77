package validate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRules runs each semantic rule on a valid and an invalid variant of
// the base spec; the valid variant guards against rules that fire too often.
func TestRules(t *testing.T) {
	base := readBase(t)
	node1 := "    - {name: node1, address: 10.0.0.2, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}"
	par := "  tensor: 1\n  pipeline: 1\n  data: 16\n"
	cases := []struct {
		name  string
		edits []string
		wants []want
	}{
		{"duplicate name", []string{"name: node1", "name: node0"}, []want{errAt(CodeDuplicate, "14:14")}},
		{"duplicate address", []string{"10.0.0.2", "10.0.0.1"}, []want{errAt(CodeDuplicate, "14:30")}},
		{"layout product", []string{"data: 16", "data: 8"}, []want{errAt(CodeLayout, "29:9")}},
		{"layout data defaulted", []string{par, "  tensor: 4\n  pipeline: 1\n"}, nil},
		{"layout tp not dividing", []string{par, "  tensor: 3\n  pipeline: 1\n  data: 5\n"}, []want{errAt(CodeLayout, "29:9"), errAt(CodeNodeFit, "13:46"), errAt(CodeNodeFit, "14:46")}},
		{"tp x pp spans nodes ok", []string{par, "  tensor: 8\n  pipeline: 2\n  data: 1\n"}, nil},
		{"group spans unequal nodes", []string{node1, node1 + "\n    - {name: node2, address: 10.0.0.3, gpus: 4, interface: eth0}",
			par, "  tensor: 4\n  pipeline: 1\n  data: 5\n"}, nil},
		{"group spans uneven", []string{"gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1", "gpus: 4, interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1",
			par, "  tensor: 6\n  pipeline: 2\n  data: 1\n"}, []want{errAt(CodeNodeFit, "14:46")}},
		{"expert on dense model", []string{"name: deepseek-v3", "name: llama-3.1-70b", "weights: fp8", "weights: bf16"}, []want{errAt(CodeExpert, "30:11")}},
		{"expert off on dense model", []string{"name: deepseek-v3", "name: llama-3.1-70b", "weights: fp8", "weights: bf16", "expert: true", "expert: false"}, nil},
		{"unknown model", []string{"name: deepseek-v3", "name: deepsek-v3"}, []want{errAt(CodeModel, "6:9")}},
		{"unknown gpu", []string{"gpu: h20-96g", "gpu: h30"}, []want{errAt(CodeGPU, "11:8")}},
		{"custom gpu", []string{"gpu: h20-96g", "gpu: {name: X1, memory_mib: 98000, hbm_bandwidth_gbytes_per_s: 4000, bf16_tflops: 150, fp8_tflops: 300}"}, nil},
		{"custom gpu incomplete", []string{"gpu: h20-96g", "gpu: {name: X1, memory_mib: 98000}"}, []want{errAt(CodeRequired, "11:8"), errAt(CodeRequired, "11:8")}},
		{"max_model_len too long", []string{"max_model_len: 32768", "max_model_len: 200000"}, []want{errAt(CodeContext, "19:18")}},
		{"max_model_len allowed long", []string{"max_model_len: 32768", "max_model_len: 200000", "NCCL_DEBUG: INFO", "VLLM_ALLOW_LONG_MAX_MODEL_LEN: \"1\""}, []want{warnAt(CodeContext, "19:18")}},
		{"request longer than context", []string{"input_tokens: 1024\n  output", "input_tokens: 32000\n  output"}, []want{errAt(CodeContext, "20:17")}},
		{"ttft prompt longer than context", []string{"max_model_len: 32768", "max_model_len: 2048", "input_tokens: 1024\n  output_tokens: 1024", "input_tokens: 1000\n  output_tokens: 1000", "{input_tokens: 1024,", "{input_tokens: 4096,"}, []want{errAt(CodeContext, "25:22")}},
		{"percentiles out of order", []string{"p95_s: 1.0, p99_s: 1.5", "p95_s: 1.0, p99_s: 0.9"}, []want{errAt(CodeSLO, "25:59")}},
		{"percentiles subset ordered", []string{"p50_s: 0.5, p95_s: 1.0, p99_s: 1.5", "p50_s: 0.5, p99_s: 1.5"}, nil},
		{"percentiles subset unordered", []string{"p50_s: 0.5, p95_s: 1.0, p99_s: 1.5", "p50_s: 2.5, p99_s: 1.5"}, []want{errAt(CodeSLO, "25:47")}},
		{"fp8 on a100", []string{"gpu: h20-96g", "gpu: a100-80g"}, []want{warnAt(CodeFP8, "7:12")}},
		{"auto fp8 checkpoint on a800", []string{"gpu: h20-96g", "gpu: a800", "weights: fp8", "weights: auto"}, []want{warnAt(CodeFP8, "7:12")}},
		{"bf16 on a100", []string{"gpu: h20-96g", "gpu: a100-80g", "weights: fp8", "weights: bf16"}, nil},
		{"port clash", []string{"rpc_port: 13345", "rpc_port: 8000"}, []want{errAt(CodePorts, "34:13")}},
		{"unsafe metadata name", []string{"name: base", "name: \"my deploy\""}, []want{errAt(CodeUnsafeName, "4:9")}},
		{"dotdot metadata name", []string{"name: base", "name: .."}, []want{errAt(CodeUnsafeName, "4:9")}},
		{"unsafe node name", []string{"name: node1", "name: node1/x"}, []want{errAt(CodeUnsafeName, "14:14")}},
		{"unsafe served name", []string{"served_name: deepseek-v3", "served_name: \"a$(id)\""}, []want{errAt(CodeUnsafeName, "9:16")}},
		{"unsafe model path", []string{"path: /models/DeepSeek-V3", "path: /models/Deep Seek"}, []want{errAt(CodeUnsafeName, "8:9")}},
		{"hf repo path ok", []string{"path: /models/DeepSeek-V3", "path: deepseek-ai/DeepSeek-V3-0324"}, nil},
		{"bad interface", []string{"interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1", "interface: eth0/1, rdma_devices: [mlx5_0]}\n    - {name: node1"}, []want{errAt(CodeInterface, "13:60")}},
		{"bad rdma device", []string{"rdma_devices: [mlx5_0]}\n    - {name: node1", "rdma_devices: [\"mlx5 0\"]}\n    - {name: node1"}, []want{errAt(CodeInterface, "13:81")}},
		{"hostname address ok", []string{"10.0.0.2", "gpu-b.cluster.local"}, nil},
		{"ipv6 address ok", []string{"10.0.0.2", "\"fd00::2\""}, nil},
		{"bad address", []string{"10.0.0.2", "10.0.0.300"}, []want{errAt(CodeAddress, "14:30")}},
		{"shell in address", []string{"10.0.0.2", "\"h;reboot\""}, []want{errAt(CodeAddress, "14:30")}},
		{"bad env key", []string{"NCCL_DEBUG: INFO", "NCCL-DEBUG: INFO"}, []want{errAt(CodeEnv, "36:5")}},
		{"newline in env", []string{"NCCL_DEBUG: INFO", "NCCL_DEBUG: \"a\\nb\""}, []want{errAt(CodeEnv, "36:17")}},
		{"NUL in extra arg", []string{`["--enable-chunked-prefill"]`, `["--x\u0000y"]`}, []want{errAt(CodeEnv, "37:16")}},
		{"anything else in extra args", []string{`["--enable-chunked-prefill"]`, `["--json", "{\"a\": \"$(b) 'c'\"}"]`}, nil},
		{"missing interface multi-node", []string{", interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1", ", rdma_devices: [mlx5_0]}\n    - {name: node1"}, []want{warnAt(CodeNoInterface, "13:7")}},
		{"single node no interface ok", []string{"\n" + node1, "", "data: 16", "data: 8", ", interface: eth0, rdma", ", rdma"}, nil},
		{"loopback primary", []string{"10.0.0.1", "127.0.0.1"}, []want{errAt(CodeLoopback, "13:30")}},
		{"localhost single node ok", []string{"\n" + node1, "", "data: 16", "data: 8", "10.0.0.1", "localhost"}, nil},
		{"bad version", []string{`"0.11.0"`, `"latest"`}, []want{errAt(CodeVersion, "32:12")}},
		{"unknown version", []string{`"0.11.0"`, `"0.11.7"`}, []want{warnAt(CodeVersion, "32:12")}},
		{"bad version no derived image error", []string{"  image: vllm/vllm-openai:v0.11.0\n", "", `"0.11.0"`, `"0.11; x"`}, []want{errAt(CodeVersion, "32:12")}},
		{"no version", []string{"  version: \"0.11.0\"\n", ""}, []want{warnAt(CodeVersion, "32:3")}},
		{"unknown backend", []string{"  port: 8000", "  all2all_backend: deepep_low_latncy\n  port: 8000"}, []want{errAt(CodeBackend, "33:20")}},
		{"backend not in release", []string{"  port: 8000", "  all2all_backend: mori\n  port: 8000"}, []want{errAt(CodeBackend, "33:20")}},
		{"backend ok", []string{"  port: 8000", "  all2all_backend: deepep_low_latency\n  port: 8000"}, nil},
		{"env backend unknown", []string{"NCCL_DEBUG: INFO", "VLLM_ALL2ALL_BACKEND: deepep_low_latncy"}, []want{errAt(CodeBackend, "36:27")}},
		{"env backend not in release", []string{"NCCL_DEBUG: INFO", "VLLM_ALL2ALL_BACKEND: mori"}, []want{errAt(CodeBackend, "36:27")}},
		{"env backend ok", []string{"NCCL_DEBUG: INFO", "VLLM_ALL2ALL_BACKEND: pplx"}, nil},
		{"env backend not read", []string{`"0.11.0"`, `"0.16.0"`, "NCCL_DEBUG: INFO", "VLLM_ALL2ALL_BACKEND: pplx", "v0.11.0", "v0.16.0"}, []want{warnAt(CodeBackend, "36:27")}},
		{"env backend contradicts the flag", []string{`"0.11.0"`, `"0.11.1"`, "  port: 8000", "  all2all_backend: deepep_low_latency\n  port: 8000", "NCCL_DEBUG: INFO", "VLLM_ALL2ALL_BACKEND: naive", "v0.11.0", "v0.11.1"}, []want{warnAt(CodeBackend, "37:27")}},
		{"env backend overrides the spec", []string{"  port: 8000", "  all2all_backend: deepep_low_latency\n  port: 8000", "NCCL_DEBUG: INFO", "VLLM_ALL2ALL_BACKEND: naive"}, []want{warnAt(CodeBackend, "37:27")}},
		{"too many gpus per node", []string{"\n" + node1, "", "gpus: 8, interface", "gpus: 16, interface"}, []want{warnAt(CodeNodeSize, "13:46")}},
		{"bad k8s namespace", []string{"kind: docker", "kind: kubernetes\n  kubernetes: {namespace: My_NS}"}, []want{errAt(CodeUnsafeName, "40:27")}},
		{"bad shm size", []string{"kind: docker", "kind: docker\n  docker: {shm_size: lots}"}, []want{errAt(CodeUnsafeName, "40:22")}},
		{"unsafe image", []string{"image: vllm/vllm-openai:v0.11.0", "image: \"vllm openai\""}, []want{errAt(CodeUnsafeName, "40:10")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expect(t, mustBytes(t, "s.yaml", edit(t, base, c.edits...)), c.wants...)
		})
	}
}

// TestSchemaErrorSilencesDerivedRules: a wrong type inside the nodes must
// not also produce a layout error computed from the half-decoded value.
func TestSchemaErrorSilencesDerivedRules(t *testing.T) {
	src := edit(t, readBase(t), "gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1", "gpus: eight, interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: node1")
	expect(t, mustBytes(t, "s.yaml", src), errAt(CodeType, "13:46"))
}

// TestModelConfigRelative: model.config is read relative to the spec file.
func TestModelConfigRelative(t *testing.T) {
	dir := t.TempDir()
	cfg := `{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 4,
	 "num_attention_heads": 8, "num_key_value_heads": 8, "intermediate_size": 4096, "vocab_size": 32000, "max_position_embeddings": 4096}`
	if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m", "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	good := edit(t, readBase(t), "name: deepseek-v3", "config: m/config.json", "max_model_len: 32768", "max_model_len: 4096",
		"input_tokens: 1024\n  output", "input_tokens: 2048\n  output", "expert: true", "expert: false")
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds, err := File(spec)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, ds)
	bad := edit(t, good, "m/config.json", "m/nope.json")
	if err := os.WriteFile(spec, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds, _ = File(spec)
	expect(t, ds, errAt(CodeModel, "6:11"))
	dense := edit(t, good, "expert: false", "expert: true")
	_ = os.WriteFile(spec, []byte(dense), 0o644)
	_, ds, _ = File(spec)
	expect(t, ds, errAt(CodeExpert, "30:11"))
}
