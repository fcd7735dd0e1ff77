package launch

import (
	"testing"
)

// TestLeaderWorkerSetExpansion checks that an LWS becomes one invocation per
// pod with LWS_WORKER_INDEX resolved, and that positions inside a block
// scalar point at the manifest line.
func TestLeaderWorkerSetExpansion(t *testing.T) {
	manifest := `kind: LeaderWorkerSet
spec:
  leaderWorkerTemplate:
    size: 3
    workerTemplate:
      spec:
        containers:
          - name: v
            image: vllm/vllm-openai:v0.11.1
            command: ["sh", "-c"]
            args:
              - |
                vllm serve m \
                  --r $((LWS_WORKER_INDEX * 8)) --a $(LWS_LEADER_ADDRESS)
`
	invs, _, ds := ParseManifest("lws.yaml", []byte(manifest))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	want := []string{"m --r 0 --a $LWS_LEADER_ADDRESS", "m --r 8 --a $LWS_LEADER_ADDRESS", "m --r 16 --a $LWS_LEADER_ADDRESS"}
	if diff := diffStrings(want, argv(invs)); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	if got, want := invs[1].Args[1].Pos, (Pos{Line: 14, Col: 19}); got != want {
		t.Errorf("--r at %v, want %v", got, want)
	}
	if invs[2].Node != "lws.yaml:v[2]" || invs[0].ImageVersion != "0.11.1" {
		t.Errorf("node %q version %q", invs[2].Node, invs[0].ImageVersion)
	}
}

// TestManifestKinds checks Deployment args without a shell and a bad document.
func TestManifestKinds(t *testing.T) {
	manifest := "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: v\n          image: vllm/vllm-openai:v0.10.1\n          args: [\"m\", \"--port\", \"$(PORT)\"]\n          env: [{name: PORT, value: \"9000\"}]\n"
	invs, _, _ := ParseManifest("d.yaml", []byte(manifest))
	if diff := diffStrings([]string{"m --port 9000"}, argv(invs)); diff != "" {
		t.Errorf("argv: %s", diff)
	}
	_, _, ds := ParseManifest("bad.yaml", []byte("kind: [\n"))
	if len(ds) != 1 || ds[0].Code != CodeSyntax {
		t.Errorf("want one %s, got %v", CodeSyntax, ds)
	}
}

// TestLeaderWorkerSetUnknownSize: with no usable size the worker template
// is still linted, with LWS_WORKER_INDEX unknown.
func TestLeaderWorkerSetUnknownSize(t *testing.T) {
	manifest := "kind: LeaderWorkerSet\nspec:\n  leaderWorkerTemplate:\n    workerTemplate:\n      spec:\n        containers:\n          - name: v\n            image: vllm/vllm-openai:v0.11.1\n            args: [\"m\", \"--r\", \"$(LWS_WORKER_INDEX)\"]\n"
	invs, _, _ := ParseManifest("lws.yaml", []byte(manifest))
	if len(invs) != 1 || invs[0].Args[2].Known {
		t.Fatalf("want one invocation with an unknown index, got %v", argv(invs))
	}
}

// TestCustomResources: pod templates inside any kind are found, with their
// role and group; KubeRay groups become Ray starts; a RayJob entrypoint runs
// in the head container.
func TestCustomResources(t *testing.T) {
	volcano := `kind: HyperJob
spec:
  template:
    roles:
      - name: r
        entryTemplate:
          spec:
            containers:
              - name: leader
                image: vllm/vllm-openai:latest
                command: [sh, -c, "vllm serve m --tensor-parallel-size 8 --port $(PORT)"]
`
	invs, _, ds := ParseManifest("v.yaml", []byte(volcano))
	if len(ds) > 0 || len(invs) != 1 || len(invs[0].UndefinedRefs) != 0 {
		t.Fatalf("volcano: %v %v", argv(invs), ds)
	}
	ray := `kind: RayJob
spec:
  entrypoint: vllm serve m --tensor-parallel-size 16 --distributed-executor-backend ray
  rayClusterSpec:
    headGroupSpec:
      rayStartParams: {num-gpus: "8", dashboard-host: 0.0.0.0}
      template: {spec: {containers: [{name: ray-head, image: rayproject/ray:2.40.0-gpu}]}}
    workerGroupSpecs:
      - replicas: 1
        rayStartParams: {}
        template: {spec: {containers: [{name: ray-worker, image: rayproject/ray:2.40.0-gpu, resources: {limits: {nvidia.com/gpu: 8}}}]}}
`
	invs, _, ds = ParseManifest("r.yaml", []byte(ray))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	kinds := map[Kind]int{}
	for _, inv := range invs {
		kinds[inv.Kind]++
	}
	if kinds[KindRayHead] != 1 || kinds[KindRayWorker] != 1 || kinds[KindServe] != 1 {
		t.Fatalf("kinds %v argv %q", kinds, argv(invs))
	}
}
