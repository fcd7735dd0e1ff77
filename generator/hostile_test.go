package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// canary is what an injection would create; no test may leave it behind.
const canary = "/tmp/vlaunch-pwned"

// TestHostileInputs feeds quotes, command substitutions, spaces and
// newlines into every field that reaches a generated file. Each must be
// either rejected by validate (the gate `vlaunch generate` passes specs
// through; SPEC121 for secrets, by the rule the generator's GEN005 applies
// for library callers), or quoted by the generator so that bash passes it
// through unchanged.
func TestHostileInputs(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(d *spec.Deployment)
		reject diag.Code // diagnostic code, "" = must be quoted safely
	}{
		{"node name with $(...)", func(d *spec.Deployment) { d.Hardware.Nodes[1].Name = "n$(touch " + canary + ")" }, validate.CodeUnsafeName},
		{"node name with newline", func(d *spec.Deployment) { d.Hardware.Nodes[0].Name = "n0\nrm -rf /" }, validate.CodeUnsafeName},
		{"address with semicolon", func(d *spec.Deployment) { d.Hardware.Nodes[0].Address = "10.0.0.1;touch " + canary }, validate.CodeAddress},
		{"interface with backticks", func(d *spec.Deployment) { d.Hardware.Nodes[0].Interface = "eth0`touch " + canary + "`" }, validate.CodeValue},
		{"rdma device with space", func(d *spec.Deployment) { d.Hardware.Nodes[0].RDMADevices = []string{"mlx5_0 x"} }, validate.CodeInterface},
		{"metadata name with quote", func(d *spec.Deployment) { d.Metadata.Name = "x'y" }, validate.CodeUnsafeName},
		{"env key with $", func(d *spec.Deployment) { d.VLLM.Env = map[string]string{"A$(id)": "1"} }, validate.CodeEnv},
		{"secret in env", func(d *spec.Deployment) { d.VLLM.Env = map[string]string{"HF_TOKEN": "hf_abc"} }, validate.CodeSecret},
		{"token under another name", func(d *spec.Deployment) {
			d.VLLM.Env = map[string]string{"MY_VAR": "hf_0123456789abcdefghijABCDEFGHIJ0123"}
		}, validate.CodeSecret},
		{"api key in extra_args", func(d *spec.Deployment) { d.VLLM.ExtraArgs = []string{"--api-key", "sk-123"} }, validate.CodeSecret},
		{"api key joined", func(d *spec.Deployment) { d.VLLM.ExtraArgs = []string{"--api_key=sk-123"} }, validate.CodeSecret},
		{"model path with newline", func(d *spec.Deployment) { d.Model.Path = "/models/x\ntouch " + canary }, validate.CodeUnsafeName},
		{"model path with spaces and $(...)", func(d *spec.Deployment) { d.Model.Path = "/models/my model $(touch " + canary + ")" }, ""},
		{"served name with quotes", func(d *spec.Deployment) { d.Model.ServedName = `it's "quoted" $HOME` }, ""},
		{"served name with kubelet references", func(d *spec.Deployment) { d.Model.ServedName = "$(HF_TOKEN) $$ $(LWS_WORKER_INDEX)" }, ""},
		{"env value with $(...) and newline", func(d *spec.Deployment) {
			d.VLLM.Env = map[string]string{"MY_VAR": "a'b\"c $(touch " + canary + ") $(HF_TOKEN) $$\n`id` ${HOME}"}
		}, ""},
		{"extra arg with $(...)", func(d *spec.Deployment) { d.VLLM.ExtraArgs = []string{"--chat-template", "$(touch " + canary + ")"} }, ""},
		{"image with spaces", func(d *spec.Deployment) { d.Runtime.Image = "img:tag; touch " + canary }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, rt := range Runtimes {
				d := loadSpec(t, "reference")
				tt.mutate(d)
				if tt.reject != "" {
					b, ds := validated(t, d, Options{Runtime: rt})
					if b != nil || !hasCode(ds, tt.reject) {
						t.Fatalf("%s: want rejection %s, got bundle=%v diags=%v", rt, tt.reject, b != nil, ds)
					}
					continue
				}
				// Values validate would refuse too: the generator must still
				// quote them (defence in depth for library callers).
				b, ds := gen(t, d, Options{Runtime: rt})
				if ds.HasErrors() {
					t.Fatalf("%s: unexpected errors %v", rt, ds)
				}
				checkQuoted(t, d, b)
			}
		})
	}
}

// checkQuoted runs each bare script with `vllm`, `docker` and `ray`
// replaced by a stub that prints its arguments one per line, and checks the
// hostile values arrive intact and nothing was executed.
func checkQuoted(t *testing.T, d *spec.Deployment, b *Bundle) {
	t.Helper()
	if b.Plan.Runtime == "kubernetes" {
		checkKubeQuoted(t, d, b)
		return
	}
	dir := t.TempDir()
	stub := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\nenv | grep '^MY_VAR=' || true\n"
	for _, name := range []string{"vllm", "docker", "ray"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range b.Files {
		if !strings.HasSuffix(f.Path, ".sh") {
			continue
		}
		p := filepath.Join(dir, f.Path)
		if err := os.WriteFile(p, f.Data, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", p)
		cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin", "HOME=/nonexistent"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", f.Path, err, out)
		}
		if sc, err := exec.LookPath("shellcheck"); err == nil {
			if out, err := exec.Command(sc, "--shell=bash", "--severity=style", p).CombinedOutput(); err != nil {
				t.Errorf("%s: shellcheck on hostile values: %v\n%s", f.Path, err, out)
			}
		}
		if _, err := os.Stat(canary); err == nil {
			os.Remove(canary)
			t.Fatalf("%s executed injected code:\n%s", f.Path, f.Data)
		}
		for _, want := range expectedWords(d, b.Plan.Runtime) {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s: argument %q did not arrive intact; got:\n%s", f.Path, want, out)
			}
		}
	}
}

// expectedWords are the hostile values that must reach the command verbatim.
func expectedWords(d *spec.Deployment, runtime string) []string {
	words := []string{d.Model.Path, d.Model.ServedName}
	words = append(words, d.VLLM.ExtraArgs...)
	if v, ok := d.VLLM.Env["MY_VAR"]; ok {
		words = append(words, strings.SplitN(v, "\n", 2)[0])
	}
	if runtime == "docker" {
		words = append(words, d.Runtime.Image)
	}
	return words
}

func hasCode(ds diag.Diagnostics, code diag.Code) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}
