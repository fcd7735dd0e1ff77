package generator

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/vlaunch/vlaunch/spec"
)

// kubeContainer is what the kubelet runs for one container of lws.yaml.
type kubeContainer struct {
	Command []string `yaml:"command"`
	Env     []struct {
		Name      string    `yaml:"name"`
		Value     *string   `yaml:"value"`
		ValueFrom yaml.Node `yaml:"valueFrom"`
	} `yaml:"env"`
}

// kubeContainers returns the leader's and the worker's container.
func kubeContainers(t *testing.T, manifest []byte) []kubeContainer {
	t.Helper()
	var lws struct {
		Spec struct {
			LeaderWorkerTemplate struct {
				LeaderTemplate struct {
					Spec struct{ Containers []kubeContainer } `yaml:"spec"`
				} `yaml:"leaderTemplate"`
				WorkerTemplate struct {
					Spec struct{ Containers []kubeContainer } `yaml:"spec"`
				} `yaml:"workerTemplate"`
			} `yaml:"leaderWorkerTemplate"`
		} `yaml:"spec"`
	}
	if err := yaml.NewDecoder(bytes.NewReader(manifest)).Decode(&lws); err != nil {
		t.Fatalf("lws.yaml: %v", err)
	}
	tpl := lws.Spec.LeaderWorkerTemplate
	return append(tpl.LeaderTemplate.Spec.Containers, tpl.WorkerTemplate.Spec.Containers...)
}

// checkKubeQuoted does for a LeaderWorkerSet what checkQuoted does for
// scripts: it expands every container's env and command as the kubelet
// would — with LWS's variables and a defined HF_TOKEN, so a "$(HF_TOKEN)"
// that slipped through would leak — then runs the bash body with stubs and
// checks every hostile value arrives as written.
func checkKubeQuoted(t *testing.T, d *spec.Deployment, b *Bundle) {
	t.Helper()
	dir := t.TempDir()
	stubs := map[string]string{
		"vllm":   "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\nenv | grep '^MY_VAR=' || true\n",
		"ray":    "#!/bin/sh\necho '/64.0 GPU'\n",
		"getent": "#!/bin/sh\necho '10.9.9.9       STREAM leader'\n",
	}
	for name, body := range stubs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range kubeContainers(t, fileData(t, b, "lws.yaml")) {
		vars := map[string]string{"LWS_LEADER_ADDRESS": "leader.lws.ns", "LWS_GROUP_SIZE": "4", "LWS_WORKER_INDEX": "1", "HF_TOKEN": "LEAKED"}
		env := []string{"PATH=" + dir + ":/usr/bin:/bin", "HOME=/nonexistent"}
		for k, v := range vars {
			env = append(env, k+"="+v)
		}
		for _, e := range c.Env {
			v := "fieldref-or-secret"
			if e.Value != nil {
				v = kubeletExpand(*e.Value, vars)
			}
			vars[e.Name] = v
			env = append(env, e.Name+"="+v)
		}
		if want, ok := d.VLLM.Env["MY_VAR"]; ok && vars["MY_VAR"] != want {
			t.Errorf("container %d: MY_VAR arrives as %q, want %q", i, vars["MY_VAR"], want)
		}
		if len(c.Command) != 3 {
			t.Fatalf("container %d: command %q", i, c.Command)
		}
		cmd := exec.Command("bash", "-c", kubeletExpand(c.Command[2], vars))
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("container %d: %v\n%s", i, err, out)
		}
		if _, err := os.Stat(canary); err == nil {
			os.Remove(canary)
			t.Fatalf("container %d executed injected code", i)
		}
		if strings.Contains(string(out), "LEAKED") {
			t.Errorf("container %d: the kubelet substituted a secret into the command:\n%s", i, out)
		}
		for _, want := range expectedWords(d, "kubernetes") {
			if !strings.Contains(string(out), want) {
				t.Errorf("container %d: argument %q did not arrive intact; got:\n%s", i, want, out)
			}
		}
	}
}
