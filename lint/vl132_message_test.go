package lint

import (
	"strings"
	"testing"
)

// TestVL132QuotesReleaseMessage: VL132 quotes the kv_role error in the
// linted release's own words. vLLM's KVTransferConfig said "Please specify
// kv_disagg_role when kv_connector is set" from PR #10502 (read at the
// v0.6.6.post1, v0.7.2, v0.7.3, v0.8.4 and v0.11.0 tags) until PR #27166
// (merged 2025-10-19) renamed it "kv_role"; 0.11.1, the first release after
// that merge, is not read at a tag and says so.
func TestVL132QuotesReleaseMessage(t *testing.T) {
	for _, tc := range []struct {
		version, conn, want, notWant string
		unread                       bool
	}{
		{"0.6.6", "PyNcclConnector", "Please specify kv_disagg_role when kv_connector is set", "kv_role when", false},
		{"0.8.4", "PyNcclConnector", "Please specify kv_disagg_role when kv_connector is set", "kv_role when", false},
		{"0.11.0", "NixlConnector", "Please specify kv_disagg_role when kv_connector is set", "kv_role when", false},
		{"0.11.1", "NixlConnector", "Please specify kv_role when kv_connector is set", "kv_disagg_role", true},
		{"0.31.0", "NixlConnector", "Please specify kv_role when kv_connector is set", "kv_disagg_role", false},
	} {
		src := "vllm serve m --kv-transfer-config '{\"kv_connector\":\"" + tc.conn + "\"}'\n"
		ds, err := Lint([]Input{{Name: "x.sh", Data: []byte(src)}}, Options{Version: tc.version})
		if err != nil {
			t.Fatal(err)
		}
		var msg string
		for _, d := range ds {
			if d.Code == "VL132" {
				msg = d.Message
			}
		}
		if !strings.Contains(msg, tc.want) || strings.Contains(msg, tc.notWant) {
			t.Errorf("%s: VL132 %q, want the wording %q", tc.version, msg, tc.want)
		}
		if got := strings.Contains(msg, "not read"); got != tc.unread {
			t.Errorf("%s: VL132 %q: says the wording is unread = %v, want %v", tc.version, msg, got, tc.unread)
		}
	}
}
