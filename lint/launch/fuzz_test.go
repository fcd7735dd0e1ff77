package launch

import (
	"testing"

	"github.com/vlaunch/vlaunch/lint/internal/fuzzseed"
)

// addSeeds adds every corpus and fixture file with one of the extensions.
func addSeeds(f *testing.F, exts ...string) {
	for _, data := range fuzzseed.Files("../testdata", exts...) {
		f.Add(data)
	}
}

// FuzzParseShell: the shell front end must not panic or run away.
func FuzzParseShell(f *testing.F) {
	addSeeds(f, ".sh")
	f.Add([]byte("for i in {0..3}; do vllm serve m --data-parallel-start-rank $((i*8)) & done"))
	f.Add([]byte("ssh h <<EOF\nvllm serve ${M:-x} \\ \n--tp 8\nEOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseShell("fuzz.sh", data)
	})
}

// FuzzParseManifest: the Kubernetes and Compose front end must not panic.
func FuzzParseManifest(f *testing.F) {
	addSeeds(f, ".yaml")
	f.Add([]byte("kind: LeaderWorkerSet\nspec: {leaderWorkerTemplate: {size: 3, workerTemplate: {spec: {containers: [{name: v, image: vllm/vllm-openai:v0.11.1, args: [m, -dp, $(X)]}]}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseManifest("fuzz.yaml", data)
	})
}
