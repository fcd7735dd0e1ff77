package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestConfigKeys (qa44a F3): --compilation-config's keys, its pass_config
// keys, cudagraph_mode and --eplb-config's keys are checked against the
// release's classes as read at the tags: the PassConfig keys vLLM 0.12.0
// deprecates are a warning there and an error from 0.13.0 (extra="forbid");
// an unknown key is a warning where pydantic drops it (CompilationConfig
// 0.11-0.12, EPLBConfig to 0.15.1) and an error where it is refused; a
// release after 0.24.0 (not read) is a note; one before 0.11.0 is silent.
// The first script is our own line in the form of vLLM's DeepSeek-V3 wide-EP
// benchmark script (qa44a's input 06).
func TestConfigKeys(t *testing.T) {
	const passOld = `vllm serve m --compilation_config '{"pass_config":{"enable_noop":true},"cudagraph_mode":"FULL_DECODE_ONLY"}'` + "\n"
	for _, tt := range []struct {
		v, script string
		want      diag.Severity
		text      string
	}{
		{"0.10.2", passOld, 0, ""},
		{"0.12.0", passOld, diag.Warning, "deprecated in vLLM 0.12.0"},
		{"0.13.0", passOld, diag.Error, "use eliminate_noops"},
		{"0.24.0", passOld, diag.Error, "not a field of PassConfig in vLLM 0.24.0"},
		{"0.26.0", passOld, diag.Info, "vLLM 0.26.0 was not read"},
		{"0.24.0", `vllm serve m --compilation-config '{"pass_config":{"eliminate_noops":true}}'` + "\n", 0, ""},
		{"0.12.0", `vllm serve m -cc '{"bogus_top":1}'` + "\n", diag.Warning, "drops it silently"},
		{"0.13.0", `vllm serve m -cc '{"bogus_top":1}'` + "\n", diag.Error, "not a field of CompilationConfig"},
		{"0.24.0", `vllm serve m --compilation-config '{"cudagraph_mode":"full_decode_onlyx"}'` + "\n", diag.Error, "not a CUDAGraphMode"},
		{"0.24.0", `vllm serve m --compilation-config '{"cudagraph_mode":"full_decode_only"}'` + "\n", 0, ""},
		{"0.24.0", `vllm serve m --compilation-config.pass_config.enable_fusion true` + "\n", diag.Error, "use fuse_norm_quant and fuse_act_quant"},
		{"0.15.1", `vllm serve m --eplb-config '{"window_sze":1000}'` + "\n", diag.Warning, "did you mean window_size"},
		{"0.16.0", `vllm serve m --eplb-config '{"window_sze":1000}'` + "\n", diag.Error, "did you mean window_size"},
		{"0.24.0", `vllm serve m --eplb-config '{"communicator":"x"}'` + "\n", 0, ""},
		{"0.19.1", `vllm serve m --eplb-config '{"communicator":"x"}'` + "\n", diag.Error, "field from vLLM 0.20.0 on"},
	} {
		ds := findingsOf(t, tt.v, tt.script, codes.VLConfigKeys)
		if tt.want == 0 {
			if len(ds) != 0 {
				t.Errorf("%s %q: want no VL138, got %v", tt.v, tt.script, ds)
			}
			continue
		}
		if len(ds) != 1 || ds[0].Severity != tt.want || !strings.Contains(ds[0].Message+" "+ds[0].Hint, tt.text) {
			t.Errorf("%s %q: got %v, want one VL138 %v containing %q", tt.v, tt.script, ds, tt.want, tt.text)
		}
	}
}
