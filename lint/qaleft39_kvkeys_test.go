package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestKVTransferUnknownKey (QA left 39 #3): a --kv-transfer-config key
// KVTransferConfig does not have. vLLM parses the flag's JSON into the
// config class (vllm/engine/arg_utils.py get_kwargs): 0.6.5-0.8.5 with
// BaseModel.model_validate_json and 0.9.1-0.15.1 with
// TypeAdapter(pydantic dataclass).validate_json, pydantic's default
// extra='ignore' dropping the key silently (a warning: the setting does
// nothing); 0.9.0 with KVTransferConfig(**json.loads(x)) on a stdlib
// dataclass, a TypeError argparse reports as an invalid value, and from
// 0.16.0 with @config's ConfigDict(extra="forbid") (#31541), a
// ValidationError "Extra inputs are not permitted" (errors: vllm serve
// exits). A key of a later release (kv_load_failure_policy, 0.13.0) on an
// earlier one is unknown there too.
func TestKVTransferUnknownKey(t *testing.T) {
	const typo = `vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_buffer_sise":5e9}'` + "\n"
	const later = `vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_load_failure_policy":"recompute"}'` + "\n"
	const dotted = "vllm serve m --kv-transfer-config.kv_connector NixlConnector --kv-transfer-config.kv_role kv_both --kv-transfer-config.kv_buffer_sise 5e9\n"
	tests := []struct {
		version, script string
		want            []diag.Severity
	}{
		{"0.8.5", typo, []diag.Severity{diag.Warning}},
		{"0.9.0", typo, []diag.Severity{diag.Error}},
		{"0.11.0", typo, []diag.Severity{diag.Warning}},
		{"0.16.0", typo, []diag.Severity{diag.Error}},
		{"0.24.0", dotted, []diag.Severity{diag.Error}},
		{"0.12.0", later, []diag.Severity{diag.Warning}},
		{"0.13.0", later, nil},
		{"0.20.0", later, nil},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			ds, err := Lint([]Input{{Name: "serve.sh", Data: []byte(tt.script)}}, Options{Version: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			var got []diag.Severity
			for _, d := range ds {
				if d.Code == codes.VLKVTransferConfig {
					got = append(got, d.Severity)
					if !strings.Contains(d.Message, tt.version) {
						t.Errorf("message does not name the release %s: %s", tt.version, d.Message)
					}
					if d.Col == 0 {
						t.Errorf("no column: %+v", d)
					}
				}
			}
			if len(got) != len(tt.want) || len(got) == 1 && got[0] != tt.want[0] {
				t.Errorf("VLKVTransferConfig severities %v, want %v\n%s", got, tt.want, ds)
			}
		})
	}
}
