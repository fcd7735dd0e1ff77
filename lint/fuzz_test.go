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
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Lint([]Input{{Name: "fuzz.sh", Data: data}}, Options{})
	})
}

// FuzzLintManifest: the Kubernetes front end and every rule must not panic.
func FuzzLintManifest(f *testing.F) {
	addSeeds(f, ".yaml")
	f.Add([]byte("kind: LeaderWorkerSet\nspec: {leaderWorkerTemplate: {size: 3, workerTemplate: {spec: {containers: [{name: v, image: vllm/vllm-openai:v0.11.1, args: [m, -dp, $(X)]}]}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Lint([]Input{{Name: "fuzz.yaml", Data: data}}, Options{})
	})
}

// FuzzLintMarkdown: the code blocks of a Markdown document and every rule
// must not panic.
func FuzzLintMarkdown(f *testing.F) {
	addSeeds(f, ".md")
	f.Add([]byte("x\n  ```bash\n  vllm serve m \\\n  --tp 8\n  ```\n```yaml\nkind: Pod\n```\n~~~console\n$ vllm serve m\nout\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Lint([]Input{{Name: "fuzz.md", Data: data}}, Options{})
	})
}
