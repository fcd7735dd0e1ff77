package launch

import (
	"strings"
	"testing"
)

// argsOf joins an invocation's argument texts.
func argsOf(inv *Invocation) string {
	var a []string
	for _, v := range inv.Args {
		a = append(a, v.Text)
	}
	return strings.Join(a, " ")
}

// TestHelmProductionStack: a modelSpec entry is rendered as
// deployment-vllm-multi.yaml@a6c01db05f65 writes it (vllmConfig's flags in
// the template's order, extraArgs last; requestGPU GPUs; replicaCount
// copies; the image tag's release), and a vllmConfig key written directly
// under the entry is VL135.
func TestHelmProductionStack(t *testing.T) {
	const values = `servingEngineSpec:
  modelSpec:
    - name: "llama"
      repository: "vllm/vllm-openai"
      tag: "v0.8.5.post1"
      modelURL: "meta-llama/Llama-3.1-8B-Instruct"
      replicaCount: 3
      requestGPU: 2
      maxNumSeqs: 64
      vllmConfig:
        enablePrefixCaching: true
        maxModelLen: 16384
        tensorParallelSize: 2
        extraArgs: ["--enforce-eager"]
`
	invs, _, ds := Parse("values.yaml", []byte(values))
	if len(invs) != 1 {
		t.Fatalf("want 1 invocation, got %d (%v)", len(invs), ds)
	}
	inv := invs[0]
	want := "meta-llama/Llama-3.1-8B-Instruct --host 0.0.0.0 --port 8000 --enable-prefix-caching --max-model-len 16384 --tensor-parallel-size 2 --enforce-eager"
	if got := argsOf(inv); got != want {
		t.Errorf("args %q, want %q", got, want)
	}
	if inv.GPUs != 2 || inv.Copies != 3 || inv.ImageVersion != "0.8.5.post1" {
		t.Errorf("GPUs %d copies %d version %q, want 2, 3, 0.8.5.post1", inv.GPUs, inv.Copies, inv.ImageVersion)
	}
	if len(ds) != 1 || ds[0].Code != CodeHelmIgnored || ds[0].Line != 9 {
		t.Errorf("want one VL135 at line 9 (maxNumSeqs outside vllmConfig), got %v", ds)
	}
}

// TestHelmLLMDModelService: a decode container with modelCommand
// vllmServe runs `vllm serve <hf model> --port P --tensor-parallel-size T
// --data-parallel-size D --data-parallel-size-local DL --served-model-name
// N` then its args (_helpers.tpl@3051935eb5a4 vllmServeModelCommand), on
// TP x DP-local GPUs; a custom container is left to its own command.
func TestHelmLLMDModelService(t *testing.T) {
	const values = `modelArtifacts:
  uri: "hf://Qwen/Qwen3-32B"
  name: "qwen3-32b"
routing:
  servicePort: 8000
  proxy:
    enabled: true
    targetPort: 8200
decode:
  replicas: 2
  parallelism:
    tensor: 2
    data: 4
    dataLocal: 2
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.22.1
      modelCommand: vllmServe
      args: ["--max-model-len", "8192"]
prefill:
  create: false
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.22.1
      modelCommand: vllmServe
`
	invs, _, ds := Parse("values.yaml", []byte(values))
	if len(invs) != 1 || len(ds) != 0 {
		t.Fatalf("want 1 invocation (prefill create: false) and no diagnostics, got %d, %v", len(invs), ds)
	}
	inv := invs[0]
	want := "Qwen/Qwen3-32B --port 8200 --tensor-parallel-size 2 --data-parallel-size 4 --data-parallel-size-local 2 --served-model-name qwen3-32b --max-model-len 8192"
	if got := argsOf(inv); got != want {
		t.Errorf("args %q, want %q", got, want)
	}
	if inv.GPUs != 4 || inv.Copies != 2 {
		t.Errorf("GPUs %d copies %d, want 4 (TP 2 x DP-local 2) and 2", inv.GPUs, inv.Copies)
	}
}

// TestHelmProductionStackPD: an lmcacheConfig with enablePD is rendered
// as deployment-vllm-multi.yaml@a6c01db05f65 writes it (QA41 D3): the
// connector's kv_connector_extra_config names the NIXL role as
// lmcache_rpc_port, and cudaVisibleDevices becomes CUDA_VISIBLE_DEVICES.
func TestHelmProductionStackPD(t *testing.T) {
	const values = `servingEngineSpec:
  modelSpec:
    - name: "p"
      repository: "vllm/vllm-openai"
      tag: "v0.10.1"
      modelURL: "Qwen/Qwen3-8B"
      lmcacheConfig:
        enabled: true
        cudaVisibleDevices: "2"
        kvRole: "kv_producer"
        enablePD: true
        nixlRole: "sender"
`
	invs, _, ds := Parse("values.yaml", []byte(values))
	if len(invs) != 1 {
		t.Fatalf("want 1 invocation, got %d (%v)", len(invs), ds)
	}
	inv := invs[0]
	want := `Qwen/Qwen3-8B --host 0.0.0.0 --port 8000 --kv-transfer-config {"kv_connector":"LMCacheConnectorV1","kv_role":"kv_producer","kv_connector_extra_config":{"discard_partial_chunks": false, "lmcache_rpc_port": "sender"}}`
	if got := argsOf(inv); got != want {
		t.Errorf("args %q,\nwant %q", got, want)
	}
	found := false
	for _, e := range inv.Env {
		if e.Name == "CUDA_VISIBLE_DEVICES" {
			found = e.Value.Text == "2" && e.Pos.Line == 9
		}
	}
	if !found || inv.GPUs != 1 {
		t.Errorf("want CUDA_VISIBLE_DEVICES=2 from line 9 and 1 GPU, got env %+v GPUs %d", inv.Env, inv.GPUs)
	}
}
