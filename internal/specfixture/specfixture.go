// Package specfixture builds the large specs that tests and benchmarks
// share from the reference example, so the rule for "the reference on N
// nodes" is written once.
package specfixture

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// refNode is one node line of the reference example's hardware list.
var refNode = regexp.MustCompile(`(?m)^    - \{name: node\d.*\n`)

// refLayout is the reference example's pinned layout.
const refLayout = "parallelism:\n  tensor: 1\n  pipeline: 1\n  data: 32\n  expert: true\n"

// AutoOnNodes is the reference example ref with n nodes of 8 GPUs each
// (distinct names and addresses) and `parallelism: auto`.
func AutoOnNodes(ref []byte, n int) ([]byte, error) { return OnNodes(ref, n, Auto) }

// Auto is the parallelism line of `parallelism: auto` (OnNodes).
const Auto = "parallelism: auto"

// DP10000 pins one engine of TP 8 × DP 10,000 without expert parallelism
// on 10,000 nodes: the heaviest serving simulation a valid spec asks for
// (every DP rank in lock-step with naive dispatch).
const DP10000 = "parallelism: {tensor: 8, pipeline: 1, data: 10000, expert: false}"

// refLastTTFT is the reference example's last TTFT target.
const refLastTTFT = "    - {input_tokens: 4096, p99_s: 2.0}\n"

// MaxTTFTTargets gives the reference example (or OnNodes of it) the most
// TTFT targets a spec may have (16, the schema's limit), each at its own
// input length: every one is a scenario check simulates.
func MaxTTFTTargets(spec []byte) ([]byte, error) {
	s := string(spec)
	if !strings.Contains(s, refLastTTFT) {
		return nil, errors.New("specfixture: not the reference example (its last TTFT target is missing)")
	}
	var more strings.Builder
	for _, n := range []int{100, 200, 300, 400, 600, 800, 1000, 1500, 2000, 3000, 5000, 6000, 8000, 10000} {
		fmt.Fprintf(&more, "    - {input_tokens: %d, p99_s: 2.0}\n", n)
	}
	return []byte(strings.Replace(s, refLastTTFT, refLastTTFT+more.String(), 1)), nil
}

// OnNodes is the reference example ref with n nodes of 8 GPUs each
// (distinct names and addresses) and the given one-line parallelism
// mapping in place of its pinned layout.
func OnNodes(ref []byte, n int, parallelism string) ([]byte, error) {
	var nodes strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&nodes, "    - {name: node%d, address: 10.%d.%d.%d, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n", i, i>>16&255, i>>8&255, i&255)
	}
	s := string(ref)
	first := refNode.FindStringIndex(s)
	if first == nil || !strings.Contains(s, refLayout) {
		return nil, errors.New("specfixture: not the reference example (its node list or layout is missing)")
	}
	s = s[:first[0]] + "NODES" + refNode.ReplaceAllString(s[first[0]:], "")
	s = strings.Replace(s, "NODES", nodes.String(), 1)
	return []byte(strings.Replace(s, refLayout, parallelism+"\n", 1)), nil
}

// WriteAutoOnNodes writes AutoOnNodes of the reference example (read from
// examples, the repository's examples directory as the caller sees it) for
// n nodes into a temporary directory of tb and returns its path: the
// large-cluster benchmarks of plan and check share it.
func WriteAutoOnNodes(tb testing.TB, examples string, n int) string {
	tb.Helper()
	return WriteOnNodes(tb, examples, n, Auto)
}

// WriteOnNodes is WriteAutoOnNodes with the given parallelism line, and
// then edits (such as MaxTTFTTargets) applied in order.
func WriteOnNodes(tb testing.TB, examples string, n int, parallelism string, edits ...func([]byte) ([]byte, error)) string {
	tb.Helper()
	ref, err := os.ReadFile(filepath.Join(examples, "deepseek-v3-32xh20.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	data, err := OnNodes(ref, n, parallelism)
	for _, edit := range edits {
		if err == nil {
			data, err = edit(data)
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("nodes%d.yaml", n))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}
