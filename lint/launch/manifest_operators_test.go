package launch

import (
	"strings"
	"testing"
)

// argText joins an invocation's args for comparison.
func argText(inv *Invocation) string {
	var t []string
	for _, a := range inv.Args {
		t = append(t, a.Text)
	}
	return strings.Join(t, " ")
}

// servers returns the vLLM servers a manifest starts.
func servers(t *testing.T, y string) []*Invocation {
	t.Helper()
	invs, _, ds := ParseManifest("m.yaml", []byte(y))
	if len(ds) > 0 {
		t.Fatalf("parse: %v", ds)
	}
	var out []*Invocation
	for _, inv := range invs {
		if inv.Kind == KindServe {
			out = append(out, inv)
		}
	}
	return out
}

// TestKServeRunsTheTemplateCommand: an LLMInferenceService's main
// container without a command runs KServe's `vllm serve /mnt/models ...`
// with the pool's parallelism, its VLLM_ADDITIONAL_ARGS read as shell
// words (the template eval's them) and, with workers, one pod per
// data/dataLocal at start rank index x dataLocal, the workers headless.
func TestKServeRunsTheTemplateCommand(t *testing.T) {
	invs := servers(t, `apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
spec:
  model: {name: deepseek-ai/DeepSeek-R1}
  parallelism: {tensor: 1, data: 16, dataLocal: 8, expert: true}
  template:
    containers:
      - name: main
        env:
          - name: VLLM_ADDITIONAL_ARGS
            value: "--max-model-len 8192 --kv_transfer_config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'"
        resources: {limits: {nvidia.com/gpu: "8"}}
      - name: sidecar
        image: busybox
  worker:
    containers:
      - name: main
        resources: {limits: {nvidia.com/gpu: "8"}}
`)
	if len(invs) != 2 {
		t.Fatalf("want a leader and one worker, got %d servers", len(invs))
	}
	lead, work := argText(invs[0]), argText(invs[1])
	for _, want := range []string{"/mnt/models", "--served-model-name deepseek-ai/DeepSeek-R1", "--enable-expert-parallel", "--tensor-parallel-size 1",
		"--data-parallel-size 16 --data-parallel-size-local 8", "--data-parallel-start-rank 0", `--kv_transfer_config {"kv_connector":"NixlConnector","kv_role":"kv_both"}`} {
		if !strings.Contains(lead, want) {
			t.Errorf("leader args lack %q:\n%s", want, lead)
		}
	}
	if strings.Contains(lead, "--headless") || !strings.Contains(work, "--data-parallel-start-rank 8 --headless") {
		t.Errorf("leader %q / worker %q: want only the worker headless at start rank 8", lead, work)
	}
	if invs[0].GPUs != 8 || invs[0].Deployment != invs[1].Deployment {
		t.Errorf("GPUs %d, deployments %q %q: want 8 GPUs and one deployment", invs[0].GPUs, invs[0].Deployment, invs[1].Deployment)
	}
}

// TestKthenaInjectsItsVariables: kthena gives every container
// ENTRY_ADDRESS (a host name), GROUP_SIZE and WORKER_INDEX, and each role
// is a deployment of its own.
func TestKthenaInjectsItsVariables(t *testing.T) {
	invs := servers(t, `apiVersion: workload.serving.volcano.sh/v1alpha1
kind: ModelServing
spec:
  template:
    roles:
      - name: prefill
        workerReplicas: 1
        entryTemplate: {spec: {containers: [{name: e, command: [vllm, serve, m, -dp, "2", --data-parallel-address, $(ENTRY_ADDRESS)]}]}}
        workerTemplate: {spec: {containers: [{name: w, command: [vllm, serve, m, --headless, -dp, "2", --data-parallel-start-rank, $(WORKER_INDEX), --data-parallel-address, $(ENTRY_ADDRESS)]}]}}
      - name: decode
        entryTemplate: {spec: {containers: [{name: e, command: [vllm, serve, m]}]}}
`)
	if len(invs) != 3 {
		t.Fatalf("want 3 servers, got %d", len(invs))
	}
	addr := invs[0].Args[len(invs[0].Args)-1]
	if addr.Known || !strings.Contains(strings.Join(addr.Unresolved, ","), "ENTRY_ADDRESS") {
		t.Errorf("ENTRY_ADDRESS: got %+v, want an unresolved host", addr)
	}
	if got := argText(invs[1]); !strings.Contains(got, "--data-parallel-start-rank 1") {
		t.Errorf("worker args %q: want WORKER_INDEX 1", got)
	}
	if e, ok := invs[1].LookupEnv("GROUP_SIZE"); !ok || e.Value.Text != "2" {
		t.Errorf("GROUP_SIZE = %+v, want 2", e)
	}
	if invs[0].Deployment == invs[2].Deployment || invs[0].Deployment != invs[1].Deployment {
		t.Errorf("deployments %q %q %q: want prefill's two pods together, decode apart", invs[0].Deployment, invs[1].Deployment, invs[2].Deployment)
	}
}

// TestDynamoMultinodeFlags: a multinode Dynamo worker whose TP x PP exceeds
// its per-node GPUs gets the operator's distributed launch flags, the
// leader rank 0 and the others --headless; without multinode nothing is
// added; v1beta1 components read the main container's GPU limit.
func TestDynamoMultinodeFlags(t *testing.T) {
	invs := servers(t, `apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
spec:
  services:
    Worker:
      componentType: worker
      multinode: {nodeCount: 2}
      resources: {limits: {gpu: "8"}}
      envs: [{name: NCCL_SOCKET_IFNAME, value: eth0}]
      extraPodSpec:
        mainContainer:
          command: [python3, -m, dynamo.vllm]
          args: [--model, m, --tensor-parallel-size, "16"]
        containers: [{name: side, image: busybox, command: [sleep, inf]}]
    Single:
      resources: {limits: {gpu: "8"}}
      extraPodSpec: {mainContainer: {command: [sh, -c], args: ["python3 -m dynamo.vllm --model m"]}}
`)
	if len(invs) != 3 {
		t.Fatalf("want 2 pods of Worker and 1 of Single, got %d", len(invs))
	}
	lead, work, single := argText(invs[0]), argText(invs[1]), argText(invs[2])
	if !strings.Contains(lead, "--nnodes 2") || !strings.Contains(lead, "--node-rank 0") || strings.Contains(lead, "--headless") {
		t.Errorf("leader args %q", lead)
	}
	if !strings.Contains(work, "--node-rank 1 --headless") {
		t.Errorf("worker args %q", work)
	}
	if strings.Contains(single, "--nnodes") || invs[2].GPUs != 8 {
		t.Errorf("single-node service: args %q, GPUs %d", single, invs[2].GPUs)
	}
	if e, ok := invs[0].LookupEnv("NCCL_SOCKET_IFNAME"); !ok || e.Value.Text != "eth0" {
		t.Errorf("service envs not applied: %+v", e)
	}
	beta := servers(t, `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
spec:
  components:
    - name: W
      type: worker
      multinode: {nodeCount: 2}
      podTemplate: {spec: {containers: [{name: main, command: [python3, -m, dynamo.vllm], args: [--model, m, --tensor-parallel-size, "4", --data-parallel-size, "4"], resources: {limits: {nvidia.com/gpu: "8"}}}]}}
`)
	if len(beta) != 2 || !strings.Contains(argText(beta[1]), "--data-parallel-size-local 2 --data-parallel-start-rank 2") {
		t.Errorf("v1beta1 DP multinode: %d servers, worker args %q", len(beta), argText(beta[len(beta)-1]))
	}
	script := servers(t, `apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
spec:
  services:
    W:
      multinode: {nodeCount: 2}
      resources: {limits: {gpu: "4"}}
      extraPodSpec:
        mainContainer:
          command: [/bin/bash, -c]
          args:
            - |
              source /opt/venv/bin/activate
              python3 -m dynamo.vllm --model m --tensor-parallel-size 8 2>&1 | tee /tmp/worker.log
              echo done
`)
	if len(script) != 2 || !strings.HasSuffix(argText(script[0]), "--tensor-parallel-size 8 --distributed-executor-backend mp --nnodes 2 --master-addr $(LEADER_HOSTNAME) --node-rank 0") {
		t.Errorf("flags in a script: %d servers, leader args %q", len(script), argText(script[0]))
	}
}

// TestImageArgsWithPositionalModel: a container without a command whose
// image is built on vLLM's (its name or tag says so) passes its args to
// vLLM's entrypoint, the model first; an image that says nothing of vLLM
// does not.
func TestImageArgsWithPositionalModel(t *testing.T) {
	invs := servers(t, `apiVersion: v1
kind: Pod
spec:
  containers:
    - name: engine
      image: ghcr.io/volcano-sh/kthena-engine:vllm-ascend_v0.10.1rc1
      args: [/mnt/cache/deepseek-ai/DeepSeek-V2-Lite/, --tensor-parallel-size, "2", --enforce-eager]
    - name: web
      image: nginx:1.27
      args: [/etc/nginx/site, --port, "80"]
`)
	if len(invs) != 1 || !strings.Contains(argText(invs[0]), "--tensor-parallel-size 2") {
		t.Fatalf("want the engine container only, with its flags; got %d servers", len(invs))
	}
}

// TestKServeMainWithoutContainer: KServe merges spec.template over its
// config template, whose "main" container runs vllm serve, so a template
// that lists only other containers (a sidecar, a container named for a DRA
// claim) still starts the server; a template naming main starts it once.
func TestKServeMainWithoutContainer(t *testing.T) {
	for _, tc := range []struct {
		name, containers string
		want             int
	}{
		{"sidecar and another container", "[{name: sidecar, image: busybox, command: [sh, -c, 'sleep 1']}, {name: vllm, resources: {limits: {cpu: '8'}}}]", 1},
		{"main named", "[{name: main}, {name: sidecar, image: busybox}]", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			invs := servers(t, "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nspec:\n  model: {name: Qwen/Qwen2.5-7B-Instruct}\n  template:\n    containers: "+tc.containers+"\n")
			if len(invs) != tc.want {
				t.Fatalf("%d servers, want %d", len(invs), tc.want)
			}
			if got := argText(invs[0]); !strings.Contains(got, "/mnt/models") || !strings.Contains(got, "--served-model-name Qwen/Qwen2.5-7B-Instruct") {
				t.Errorf("args %q: want KServe's vllm serve /mnt/models line", got)
			}
		})
	}
}
