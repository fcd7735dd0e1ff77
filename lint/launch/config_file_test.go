package launch

import (
	"reflect"
	"testing"
)

// TestConfigArgs: a --config file's keys become flags as vLLM's
// load_config_file makes them (true booleans bare, false ones dropped,
// lists spread, mappings unresolved); a manifest is no flags file.
func TestConfigArgs(t *testing.T) {
	args, ok := ConfigArgs("c.yaml", []byte("model: m\ntensor-parallel-size: 4\nenforce-eager: true\ntrust-remote-code: false\ncudagraph-capture-sizes: [1, 2]\ncompilation-config: {level: 3}\n"))
	if !ok {
		t.Fatal("not read")
	}
	var got []string
	for _, a := range args {
		got = append(got, a.Text)
	}
	want := []string{"--model", "m", "--tensor-parallel-size", "4", "--enforce-eager", "--cudagraph-capture-sizes", "1", "2", "--compilation-config", "{...}"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("args = %q, want %q", got, want)
	}
	if args[3].Pos != (Pos{Line: 2, Col: 23, File: "c.yaml"}) || args[9].Known {
		t.Errorf("positions or resolution: %+v %+v", args[3].Pos, args[9])
	}
	for _, doc := range []string{"apiVersion: v1\nkind: ConfigMap\n", "services:\n  vllm: {image: x}\n", "- a\n", "not yaml: [\n"} {
		if _, ok := ConfigArgs("x.yaml", []byte(doc)); ok {
			t.Errorf("%q read as a flags file", doc)
		}
	}
}

// TestWithConfig: the file's flags go after the model positional and
// before the rest of the command line (which wins), --config dropped; the
// path is translated through the container's mounts.
func TestWithConfig(t *testing.T) {
	invs, _, _ := ParseShell("run.sh", []byte("docker run --gpus all -v $PWD/cfg.yaml:/etc/c.yaml vllm/vllm-openai:v0.22.1 m --config /etc/c.yaml --port 9000\nvllm serve --config=./other.yaml\n"))
	if len(invs) != 2 || invs[0].ConfigFile != "$PWD/cfg.yaml" || invs[1].ConfigFile != "./other.yaml" {
		t.Fatalf("config files: %q", argv(invs))
	}
	if f := ConfigInput([]string{"run.sh", "cfg.yaml", "x/cfg2.yaml"}, invs[0]); f != "cfg.yaml" {
		t.Errorf("ConfigInput = %q", f)
	}
	cfg, _ := ConfigArgs("cfg.yaml", []byte("port: 8000\ntensor-parallel-size: 2\n"))
	var got []string
	for _, a := range WithConfig(invs[0], cfg) {
		got = append(got, a.Text)
	}
	want := []string{"m", "--port", "8000", "--tensor-parallel-size", "2", "--port", "9000"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("args = %q, want %q", got, want)
	}
	// a container path no mount covers is a file of the image: no input
	invs, _, _ = ParseShell("run.sh", []byte("docker run --gpus all vllm/vllm-openai:v0.22.1 m --config /etc/c.yaml\n"))
	if invs[0].ConfigFile != "" {
		t.Errorf("unmounted config file = %q", invs[0].ConfigFile)
	}
}
