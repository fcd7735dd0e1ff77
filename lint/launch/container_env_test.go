package launch

import "testing"

// TestContainerScriptEnv: a script run inside a container exports into the
// engine's environment; the host script's variables do not reach it unless
// passed with -e.
func TestContainerScriptEnv(t *testing.T) {
	script := `export HOST_ONLY=1 NCCL_DEBUG=INFO
docker run --gpus all -e GLOO_SOCKET_IFNAME=eth0 --entrypoint bash vllm/vllm-openai:v0.11.0 \
  -c 'export NCCL_SOCKET_IFNAME=eth0; vllm serve m'
`
	invs, _, ds := ParseShell("run.sh", []byte(script))
	if len(ds) > 0 || len(invs) != 1 {
		t.Fatalf("invocations %v, diagnostics %v", argv(invs), ds)
	}
	inv := invs[0]
	for _, name := range []string{"GLOO_SOCKET_IFNAME", "NCCL_SOCKET_IFNAME"} {
		if _, ok := inv.LookupEnv(name); !ok {
			t.Errorf("%s not in the container's environment", name)
		}
	}
	for _, name := range []string{"HOST_ONLY", "NCCL_DEBUG"} {
		if _, ok := inv.LookupEnv(name); ok {
			t.Errorf("host variable %s leaked into the container", name)
		}
	}
}
