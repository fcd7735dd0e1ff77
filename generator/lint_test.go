package generator

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// needShellcheck skips locally without shellcheck but fails in CI, where
// the scripts must be checked.
func needShellcheck(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("shellcheck")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("shellcheck is required in CI (apt-get install -y shellcheck)")
		}
		t.Skip("shellcheck not installed")
	}
	return path
}

// bundleScripts renders every fixture with every runtime and returns the
// shell scripts they contain: node scripts, and the bash -c bodies of the
// LeaderWorkerSet and of multi-step docker runs.
func bundleScripts(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, tc := range goldenCases {
		for _, rt := range Runtimes {
			if !runsOn(loadSpec(t, tc.spec), rt) {
				continue
			}
			b, _ := generate(t, tc.spec, rt)
			for _, f := range b.Files {
				name := tc.spec + "-" + rt + "-" + strings.ReplaceAll(f.Path, "/", "-") // a P/D bundle's pool directories
				switch {
				case strings.HasSuffix(f.Path, ".sh"):
					out[name] = f.Data
				case f.Path == "router.yaml", f.Path == "llm-d.yaml":
					// A P/D bundle's router Deployment runs vllm-router
					// directly, llm-d's its images' entrypoints: no bash -c
					// script in them.
				case strings.HasSuffix(f.Path, ".yaml"):
					for i, s := range lwsScripts(t, f.Data) {
						out[name+"-"+string(rune('a'+i))+".sh"] = []byte("#!/usr/bin/env bash\n" + s)
					}
				}
			}
		}
	}
	return out
}

// lwsScripts parses every YAML document and returns the `bash -c` scripts.
func lwsScripts(t *testing.T, data []byte) []string {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var scripts []string
	docs := 0
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("manifest does not parse: %v\n%s", err, data)
		}
		docs++
		collectCommands(doc, &scripts)
	}
	// The LeaderWorkerSet, and its "-api" Service unless a top-level router
	// (router.yaml) is the entry point.
	if docs < 1 || docs > 2 || len(scripts) != 2 {
		t.Fatalf("want the LeaderWorkerSet (and its Service) with a leader and a worker command, got %d docs, %d commands", docs, len(scripts))
	}
	return scripts
}

func collectCommands(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		if cmd, ok := x["command"].([]any); ok && len(cmd) == 3 && cmd[0] == "bash" && cmd[1] == "-c" {
			// What bash receives: the kubelet expands the command first.
			*out = append(*out, kubeletExpand(cmd[2].(string), nil))
		}
		for _, k := range sortedAnyKeys(x) {
			collectCommands(x[k], out)
		}
	case []any:
		for _, e := range x {
			collectCommands(e, out)
		}
	}
}

func sortedAnyKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // leader before worker, reproducibly
	return keys
}

func writeScripts(t *testing.T, scripts map[string][]byte) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for name, data := range scripts {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// checkShell runs bash -n on every script and shellcheck over all of them
// (needShellcheck: required under CI, a skip elsewhere without it).
func checkShell(t *testing.T, scripts map[string][]byte) {
	t.Helper()
	paths := writeScripts(t, scripts)
	for _, p := range paths {
		if out, err := exec.Command("bash", "-n", p).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", filepath.Base(p), err, out)
		}
	}
	sc := needShellcheck(t)
	if out, err := exec.Command(sc, append([]string{"--shell=bash", "--severity=style"}, paths...)...).CombinedOutput(); err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

func TestScriptsParseWithBash(t *testing.T) {
	scripts := bundleScripts(t)
	for name, data := range scripts {
		// An empty quoted word means a setting was left unfilled.
		if bytes.Contains(data, []byte(" '' ")) || bytes.Contains(data, []byte(" ''\n")) {
			t.Errorf("%s passes an empty argument:\n%s", name, data)
		}
	}
	for _, p := range writeScripts(t, scripts) {
		if out, err := exec.Command("bash", "-n", p).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", filepath.Base(p), err, out)
		}
	}
}

func TestScriptsPassShellcheck(t *testing.T) {
	sc := needShellcheck(t)
	paths := writeScripts(t, bundleScripts(t))
	out, err := exec.Command(sc, append([]string{"--shell=bash", "--severity=style"}, paths...)...).CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

// TestDockerContainerScript: a docker node with several steps (the Ray
// head) runs a bundle file inside the container instead of a bash -c string.
func TestDockerContainerScript(t *testing.T) {
	b, _ := generate(t, "tp-pp-ray", "docker")
	var paths []string
	var node0 []byte
	for _, f := range b.Files {
		paths = append(paths, f.Path)
		if f.Path == "node0.sh" {
			node0 = f.Data
		}
	}
	if strings.Join(paths, " ") != ".vlaunch-bundle README.md hosts node0.container.sh node0.sh node1.sh" {
		t.Fatalf("files = %v", paths)
	}
	if !bytes.Contains(node0, []byte(`-v "$here"/node0.container.sh:/vlaunch/start.sh:ro`)) ||
		!bytes.Contains(node0, []byte("/vlaunch/start.sh\n")) {
		t.Errorf("node0.sh must mount and run node0.container.sh:\n%s", node0)
	}
}
