package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/lint/internal/fuzzseed"
)

// addSeeds adds every corpus and fixture file with one of the extensions.
func addSeeds(f *testing.F, exts ...string) {
	for _, data := range fuzzseed.Files("testdata", exts...) {
		f.Add(data)
	}
}

// FuzzLintShell: the shell front end and every rule must not panic.
func FuzzLintShell(f *testing.F) {
	addSeeds(f, ".sh")
	f.Add([]byte("for i in {0..3}; do vllm serve m --data-parallel-start-rank $((i*8)) & done"))
	f.Add([]byte("ssh h <<EOF\nvllm serve ${M:-x} \\ \n--tp 8\nEOF\n"))
	f.Add([]byte("A=\"\"; [ -n \"$X\" ] && A=\"--kv-cache-dtype fp8\"\nexec vllm serve $PROFILER_ARGS $A org/m --port 8200 ${B:+--kv-cache-memory-bytes=$B}\n"))
	// qa45a F3, F8: argv in the positional parameters, changed in some arms
	f.Add([]byte("set -- vllm serve m --tp 8\nif [ \"$R\" = 0 ]; then set -- \"$@\" --port 1; else shift 2; fi\nsetsid bash -c 'shift; exec \"$@\"' _ p \"$@\" &\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Lint([]Input{{Name: "fuzz.sh", Data: data}}, Options{})
	})
}

// FuzzLintManifest: the Kubernetes front end and every rule must not panic.
func FuzzLintManifest(f *testing.F) {
	addSeeds(f, ".yaml")
	f.Add([]byte("kind: LeaderWorkerSet\nspec: {leaderWorkerTemplate: {size: 3, workerTemplate: {spec: {containers: [{name: v, image: vllm/vllm-openai:v0.11.1, args: [m, -dp, $(X)]}]}}}}\n"))
	for _, seed := range operatorSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Lint([]Input{{Name: "fuzz.yaml", Data: data}}, Options{})
	})
}

// FuzzLintMarkdown: the code blocks of a Markdown document and every rule
// must not panic.
func FuzzLintMarkdown(f *testing.F) {
	addSeeds(f, ".md")
	f.Add([]byte("x\n  ```bash\n  vllm serve m \\\n  --tp 8\n  ```\n```yaml\nkind: Pod\n```\n~~~console\n$ vllm serve m\nout\n"))
	f.Add([]byte("```yaml\n# leader\nvllm serve m -dp 2 \\\n  --port 8000\n$ vllm serve m\n```\n")) // qa45a F4
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Lint([]Input{{Name: "fuzz.md", Data: data}}, Options{})
	})
}

// operatorSeeds are small resources of the operators the front end expands
// (KServe pools with workers and prefill, Dynamo multinode, kthena roles,
// DisaggregatedSet roles, named roles of a resource vlaunch does not model).
var operatorSeeds = []string{
	"apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nspec: {model: {name: a/b}, parallelism: {tensor: 2, data: 4, dataLocal: 2, expert: true}, template: {containers: [{name: main, env: [{name: VLLM_ADDITIONAL_ARGS, value: \"--kv_transfer_config '{\\\"kv_connector\\\":\\\"NixlConnector\\\"}'\"}]}]}, worker: {containers: [{name: main}]}, prefill: {parallelism: {tensor: 1}, template: {containers: [{name: main, args: [--enforce-eager]}]}}}\n",
	"apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nspec: {services: {W: {componentType: worker, envs: [{name: A, value: b}], multinode: {nodeCount: 3}, resources: {limits: {gpu: \"2\"}}, extraPodSpec: {mainContainer: {command: [sh, -c], args: [\"python3 -m dynamo.vllm --model m --tensor-parallel-size 1 --data-parallel-size 8\"]}}}}}\n",
	"apiVersion: workload.serving.volcano.sh/v1alpha1\nkind: ModelServing\nspec: {template: {roles: [{name: p, workerReplicas: 2, entryTemplate: {spec: {containers: [{name: e, command: [vllm, serve, m, --data-parallel-address, $(ENTRY_ADDRESS)]}]}}, workerTemplate: {spec: {containers: [{name: w, args: [$(WORKER_INDEX)]}]}}}]}}\n",
	"apiVersion: disaggregatedset.x-k8s.io/v1\nkind: DisaggregatedSet\nspec: {slices: 2, roles: [{name: prefill, spec: {replicas: 2, leaderWorkerTemplate: {size: 2, workerTemplate: {spec: {containers: [{name: v, command: [vllm, serve, m, --data-parallel-multi-port-external-lb, -dpl, \"8\", --data-parallel-start-rank, $(LWS_WORKER_INDEX)]}]}}}}}, {name: decode, leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: v, args: [m]}]}}}}]}\n",
	"apiVersion: orchestration.aibrix.ai/v1alpha1\nkind: StormService\nspec: {template: {spec: {roles: [{name: prefill, replicas: 2, template: {spec: {containers: [{name: p, command: [sh, -c, \"vllm serve $SPEC_ARGS m -tp 1\"]}]}}}, {name: decode, template: {spec: {containers: [{name: d, args: [m]}]}}}]}}}\n",
}
