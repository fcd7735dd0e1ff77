package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// epdScript is an encode/prefill/decode deployment on one host, written
// after vLLM's own example (v0.13.0
// examples/online_serving/disaggregated_encoder/disagg_1e1p1d_example.sh)
// and the Perlmutter script of qa45a F2 (read_file id 65971232836): the
// encoder has --ec-transfer-config only. ENC_ROLE is replaced per case.
const epdScript = `CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen2-VL-2B-Instruct --port 19534 \
  --gpu-memory-utilization 0.01 \
  --ec-transfer-config "{\"ec_connector\":\"ECExampleConnector\",\"ec_role\":\"ENC_ROLE\",\"ec_connector_extra_config\":{\"shared_storage_path\":\"$PSCRATCH/ec\"}}" &
CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen2-VL-2B-Instruct --port 19535 \
  --ec-transfer-config '{"ec_connector":"ECExampleConnector","ec_role":"ec_consumer"}' \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=2 vllm serve Qwen/Qwen2-VL-2B-Instruct --port 19536 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
`

// TestEPDEncoderNotPDLeg (qa45a F2): the encoder of an EPD deployment
// (ec_role ec_producer) is not a P/D engine without a KV connector; an
// engine of the same model with no EC producer role still is.
func TestEPDEncoderNotPDLeg(t *testing.T) {
	for _, tt := range []struct {
		role string
		want int
	}{
		{"ec_producer", 0},
		{"ec_both", 1}, // also consumes: may be a P/D leg
		{"ec_consumer", 1},
	} {
		script := strings.Replace(epdScript, "ENC_ROLE", tt.role, 1)
		ds := findingsOf(t, "0.24.0", script, codes.VLPDConnector)
		if len(ds) != tt.want || (tt.want == 1 && ds[0].Line != 1) {
			t.Errorf("ec_role %s: %v, want %d VL224 at line 1", tt.role, ds, tt.want)
		}
	}
	// The dotted spelling sets the role too.
	dotted := strings.Replace(epdScript, `--ec-transfer-config "{\"ec_connector\":\"ECExampleConnector\",\"ec_role\":\"ENC_ROLE\",\"ec_connector_extra_config\":{\"shared_storage_path\":\"$PSCRATCH/ec\"}}"`,
		"--ec-transfer-config.ec_connector ECExampleConnector --ec-transfer-config.ec_role ec_producer", 1)
	if ds := findingsOf(t, "0.24.0", dotted, codes.VLPDConnector); len(ds) != 0 {
		t.Errorf("dotted ec_role ec_producer: %v, want no VL224", ds)
	}
}
