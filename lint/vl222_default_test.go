package lint

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestVL222DefaultIsWarning (after qa45a input 09): a loopback NIXL
// side-channel host that is only the script's ${X:-127.0.0.1} default is a
// warning naming X; the same loopback as a fixed literal stays an error.
func TestVL222DefaultIsWarning(t *testing.T) {
	for _, tt := range []struct {
		file    string
		sev     diag.Severity
		mention string
	}{
		{"testdata/rules/VL222/default-warning.sh", diag.Warning, "only the default of NIXL_SIDE_CHANNEL_HOST"},
		{"testdata/rules/VL222/bad-literal-loopback.sh", diag.Error, "is not reachable from another node"},
	} {
		data, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		ds := findingsOf(t, "0.12.0", string(data), codes.VLNixlHost)
		if len(ds) != 1 {
			t.Fatalf("%s: %d VL222 findings, want 1: %v", tt.file, len(ds), ds)
		}
		if ds[0].Severity != tt.sev || !strings.Contains(ds[0].Message, tt.mention) {
			t.Errorf("%s: got %v %q, want %v mentioning %q", tt.file, ds[0].Severity, ds[0].Message, tt.sev, tt.mention)
		}
	}
}

// TestLoopbackDefaultIsWarning: VL206 (DP address) and VL210 (VLLM_HOST_IP)
// treat a loopback that is only a ${X:-127.0.0.1} default as a warning
// naming X, and a fixed loopback literal as an error (vl222fix45).
func TestLoopbackDefaultIsWarning(t *testing.T) {
	const node = `export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
export VLLM_HOST_IP=HOSTIP
vllm serve m --data-parallel-size 16 --data-parallel-size-local 8 RANK--data-parallel-address HEADIP --data-parallel-rpc-port 13345 --enable-expert-parallel
`
	for _, tt := range []struct {
		name, host, head string
		sev              diag.Severity
		mention          string
	}{
		{"default", "${HOST_IP:-127.0.0.1}", "${HEAD_IP:-127.0.0.1}", diag.Warning, "only the default of "},
		{"literal", "127.0.0.1", "127.0.0.1", diag.Error, "loopback"},
	} {
		r := strings.NewReplacer("HOSTIP", tt.host, "HEADIP", tt.head)
		n0 := r.Replace(strings.Replace(node, "RANK", "", 1))
		n1 := r.Replace(strings.Replace(node, "RANK", "--data-parallel-start-rank 8 --headless ", 1))
		ds, err := Lint([]Input{{Name: "n0.sh", Data: []byte(n0)}, {Name: "n1.sh", Data: []byte(n1)}}, Options{Version: "0.12.0"})
		if err != nil {
			t.Fatal(err)
		}
		for _, code := range []diag.Code{codes.VLDPAddress, codes.VLHostIP} {
			found := 0
			for _, d := range ds {
				if d.Code != code {
					continue
				}
				found++
				if d.Severity != tt.sev || !strings.Contains(d.Message, tt.mention) {
					t.Errorf("%s %s: got %v %q, want %v mentioning %q", tt.name, code, d.Severity, d.Message, tt.sev, tt.mention)
				}
			}
			if found == 0 {
				t.Errorf("%s: no %s finding in %v", tt.name, code, ds)
			}
		}
	}
}
