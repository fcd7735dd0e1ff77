package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestHeadAddressSeverityFollowsCertainty: a Ray head started without
// --node-ip-address while VLLM_HOST_IP is set is a warning on a host the
// files show to have several interfaces (a socket-interface variable, host
// networking), an info otherwise (issue #25: severity follows certainty).
func TestHeadAddressSeverityFollowsCertainty(t *testing.T) {
	tests := []struct {
		name, script string
		want         diag.Severity
	}{
		{"interface chosen", "export GLOO_SOCKET_IFNAME=ib0 VLLM_HOST_IP=192.168.10.1\nray start --head --port=6379\n", diag.Warning},
		{"host network", "docker run --network host --gpus all --ipc=host -e VLLM_HOST_IP=192.168.10.1 --entrypoint ray vllm/vllm-openai:v0.10.1 start --head --port=6379 --block\n", diag.Warning},
		{"nothing shown", "export VLLM_HOST_IP=192.168.10.1\nray start --head --port=6379\n", diag.Info},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := Lint([]Input{{Name: "head.sh", Data: []byte(tt.script)}}, Options{Version: "0.10.1"})
			if err != nil {
				t.Fatal(err)
			}
			var got []diag.Severity
			for _, d := range ds {
				if d.Code == "VL219" {
					got = append(got, d.Severity)
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("VL219 severities %v, want [%v]\n%s", got, tt.want, ds)
			}
		})
	}
}
