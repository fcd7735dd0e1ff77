package launch

import (
	"strings"
	"testing"
)

// TestDisaggregatedSetRoles: each role of a DisaggregatedSet is a
// LeaderWorkerSet of its own (a deployment per role, pods expanded over
// leaderWorkerTemplate.size with the LWS_* variables), in the v1 shape
// (roles[].spec) and the v1alpha1 one (the role holds the LWS fields);
// copies are the role's replicas times the set's slices.
func TestDisaggregatedSetRoles(t *testing.T) {
	cases := []struct {
		name, yaml string
		// nodes are the servers' node names; copies their Copies
		nodes  []string
		copies []int
	}{
		{"v1 multi-node roles", `apiVersion: disaggregatedset.x-k8s.io/v1
kind: DisaggregatedSet
metadata: {name: pd}
spec:
  slices: 2
  roles:
    - name: prefill
      spec:
        replicas: 3
        leaderWorkerTemplate:
          size: 2
          workerTemplate: {spec: {containers: [{name: vllm, command: [vllm, serve, m, --data-parallel-start-rank, $(LWS_WORKER_INDEX), -dp, $(LWS_GROUP_SIZE)]}]}}
    - name: decode
      spec:
        leaderWorkerTemplate:
          size: 1
          workerTemplate: {spec: {containers: [{name: vllm, command: [vllm, serve, m]}]}}
`, []string{"m.yaml:prefill/vllm[0]", "m.yaml:prefill/vllm[1]", "m.yaml:decode/vllm[0]"}, []int{6, 6, 2}},
		{"v1alpha1 role holds the LWS spec", `apiVersion: disaggregatedset.x-k8s.io/v1alpha1
kind: DisaggregatedSet
spec:
  roles:
  - name: prefill
    replicas: 2
    leaderWorkerTemplate:
      size: 2
      workerTemplate: {spec: {containers: [{name: vllm, command: [vllm, serve, m, --data-parallel-start-rank, $(LWS_WORKER_INDEX), -dp, $(LWS_GROUP_SIZE)]}]}}
  - name: decode
    leaderWorkerTemplate:
      workerTemplate: {spec: {containers: [{name: vllm, command: [vllm, serve, m]}]}}
`, []string{"m.yaml:prefill/vllm[0]", "m.yaml:prefill/vllm[1]", "m.yaml:decode/vllm"}, []int{2, 2, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			invs := servers(t, tc.yaml)
			var nodes []string
			var copies []int
			for _, inv := range invs {
				nodes, copies = append(nodes, inv.Node), append(copies, inv.Copies)
			}
			if strings.Join(nodes, " ") != strings.Join(tc.nodes, " ") {
				t.Fatalf("nodes %q, want %q", nodes, tc.nodes)
			}
			for i := range copies {
				if copies[i] != tc.copies[i] {
					t.Errorf("copies %v, want %v", copies, tc.copies)
					break
				}
			}
			if got := argText(invs[1]); !strings.Contains(got, "--data-parallel-start-rank 1 -dp 2") {
				t.Errorf("prefill worker 1 args %q: want LWS_WORKER_INDEX 1 and LWS_GROUP_SIZE 2", got)
			}
			if invs[0].Deployment != invs[1].Deployment || invs[0].Deployment == invs[2].Deployment {
				t.Errorf("deployments %q %q %q: want prefill's pods together, decode apart", invs[0].Deployment, invs[1].Deployment, invs[2].Deployment)
			}
		})
	}
}

// TestGenericNamedRoles: a custom resource vlaunch does not model whose pod
// templates sit in a list of named roles (AIBrix StormService) gets one
// deployment per prefill/decode role, from the entry's name, as keys named
// prefill and decode already gave.
func TestGenericNamedRoles(t *testing.T) {
	invs := servers(t, `apiVersion: orchestration.aibrix.ai/v1alpha1
kind: StormService
spec:
  template:
    spec:
      roles:
        - name: prefill
          replicas: 4
          template: {spec: {containers: [{name: p, image: vllm/vllm-openai:v0.11.1, command: [vllm, serve, m, -tp, "1"]}]}}
        - name: decode
          replicas: 1
          template: {spec: {containers: [{name: d, image: vllm/vllm-openai:v0.11.1, command: [vllm, serve, m, -tp, "4"]}]}}
`)
	if len(invs) != 2 || invs[0].Deployment == invs[1].Deployment {
		t.Fatalf("want prefill and decode as two deployments, got %d servers %q", len(invs), []string{invs[0].Deployment, invs[len(invs)-1].Deployment})
	}
	if !strings.Contains(invs[0].Node, "prefill/") || !strings.Contains(invs[1].Node, "decode/") {
		t.Errorf("nodes %q %q: want the role names", invs[0].Node, invs[1].Node)
	}
}
