package launch

import (
	"slices"
	"testing"
)

// TestValueFromDefaults: a value the reader computed from a caller
// variable's ${X:-d} default names X (Value.FromDefaults), directly, through
// a variable, inside a concatenation and in a JSON flag value; a literal, a
// variable the script sets itself, and a default of a positional argument
// do not (qa45a input 09: NIXL_SIDE_CHANNEL_HOST="${NIXL_SIDE_CHANNEL_HOST:-127.0.0.1}").
func TestValueFromDefaults(t *testing.T) {
	for _, tt := range []struct {
		name, script string
		want         []string // FromDefaults of Args[1]
	}{
		{"direct", `vllm serve m --host ${HOST_IP:-127.0.0.1}`, []string{"HOST_IP"}},
		{"through-variable", "H=\"${HOST_IP:-127.0.0.1}\"\nvllm serve m --host $H", []string{"HOST_IP"}},
		{"self-assigned", "NIXL_SIDE_CHANNEL_HOST=\"${NIXL_SIDE_CHANNEL_HOST:-127.0.0.1}\"\nvllm serve m --host ${NIXL_SIDE_CHANNEL_HOST}", []string{"NIXL_SIDE_CHANNEL_HOST"}},
		{"concatenation", `vllm serve m --host "http://${A:-x}:${B:-1}"`, []string{"A", "B"}},
		{"json", `vllm serve m --kv-transfer-config "{\"kv_ip\":\"${KV_IP:-127.0.0.1}\"}"`, []string{"KV_IP"}},
		{"literal", `vllm serve m --host 127.0.0.1`, nil},
		{"script-set", "H=127.0.0.1\nvllm serve m --host $H", nil},
		{"set-default-only", "HOST_IP=10.0.0.1\nvllm serve m --host ${HOST_IP:-127.0.0.1}", nil},
	} {
		invs, _, ds := ParseShell("run.sh", []byte(tt.script))
		if len(ds) > 0 || len(invs) != 1 || len(invs[0].Args) < 3 {
			t.Fatalf("%s: invocations %v, diagnostics %v", tt.name, argv(invs), ds)
		}
		got := invs[0].Args[2]
		if !slices.Equal(got.FromDefaults, tt.want) {
			t.Errorf("%s: %q FromDefaults = %v, want %v", tt.name, got.Text, got.FromDefaults, tt.want)
		}
	}
	// The environment: an exported default reaches LookupEnv.
	invs, _, _ := ParseShell("run.sh", []byte("export VLLM_NIXL_SIDE_CHANNEL_HOST=${NIXL_SIDE_CHANNEL_HOST:-127.0.0.1}\nvllm serve m\n"))
	if len(invs) != 1 {
		t.Fatalf("invocations %v", argv(invs))
	}
	e, ok := invs[0].LookupEnv("VLLM_NIXL_SIDE_CHANNEL_HOST")
	if !ok || !slices.Equal(e.Value.FromDefaults, []string{"NIXL_SIDE_CHANNEL_HOST"}) {
		t.Errorf("env: %v %+v", ok, e.Value)
	}
}
