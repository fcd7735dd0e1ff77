package launch

import "testing"

// TestShellInYAMLFence (qa45a F4): a block tagged yaml that holds shell
// commands (design notes with an LWS leader's and worker's `vllm serve`,
// find_string id 59180118999) is read as shell; a manifest, even one whose
// command is a block scalar of `vllm serve` lines, is still read as YAML.
func TestShellInYAMLFence(t *testing.T) {
	tests := []struct {
		name, block string
		want        string
	}{
		{"vllm serve after a comment", "# leader\nvllm serve m --tp 2 \\\n  --port 8000\n# worker\nvllm serve m --headless\n", "sh"},
		{"prefix assignment", "CUDA_VISIBLE_DEVICES=0 vllm serve m\n", "sh"},
		{"continuation only", "my-launcher --model m \\\n  --tp 2\n", "sh"},
		{"docker run", "docker run --gpus all vllm/vllm-openai:v0.18.0 m\n", "sh"},
		{"manifest", "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - command: [vllm, serve, m]\n", "yaml"},
		{"block scalar command", "command: |\n  vllm serve m \\\n    --tp 2\n", "yaml"},
		{"key after a command line", "vllm serve m\nargs: [--tp, 2]\n", "yaml"},
		{"sequence", "- vllm serve m\n", "yaml"},
		{"document marker", "---\nvllm serve m\n", "yaml"},
		{"a key named python", "python: 3.12\n", "yaml"},
		{"comments only", "# nothing\n", "yaml"},
		{"console prompt", "$ vllm serve m --tp 2\nINFO started\n", "console"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := fences([]byte("```yaml\n" + tt.block + "```\n"))
			if len(fs) != 1 {
				t.Fatalf("%d fences", len(fs))
			}
			if got := shellInYAML(fs[0]); got != tt.want {
				t.Errorf("shellInYAML = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestYAMLFenceOfCommandsParsed: the commands of a yaml-tagged block of
// shell are the document's launches, at their lines.
func TestYAMLFenceOfCommandsParsed(t *testing.T) {
	doc := "notes\n\n```yaml\n# leader\nvllm serve m --data-parallel-size 2 \\\n  --port 8000\n# worker\nvllm serve m --headless\n```\n"
	invs, _, ds := ParseMarkdown("n.md", []byte(doc))
	got := argv(invs)
	if diff := diffStrings([]string{"m --data-parallel-size 2 --port 8000", "m --headless"}, got); diff != "" || len(ds) != 0 {
		t.Fatalf("argv (-want +got):\n%s\ndiagnostics %v", diff, ds)
	}
	if invs[0].Pos.Line != 5 || invs[1].Pos.Line != 8 {
		t.Errorf("lines %d, %d, want 5, 8", invs[0].Pos.Line, invs[1].Pos.Line)
	}
}
