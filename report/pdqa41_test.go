package report

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/pd"
)

// TestTTFTPartsTextCarriesReadNotice (qa41 D10): the text's TTFT parts
// carry what the JSON's do — the read notice named inside decode admission
// (pd.AdmitParts), not added as a term of its own — and nothing when there
// is none.
func TestTTFTPartsTextCarriesReadNotice(t *testing.T) {
	s := pd.Scenario{TTFTParts: pd.TTFTParts{PrefillQueueS: 0.414, PrefillS: 0.594, DecodeAdmitS: 0.0478, FirstDecodeS: 0.0194, DecodeAdmit: pd.AdmitParts{ReadNoticeS: 0.0187}}}
	line := strings.Join(scenarioLines(&s, 0), "\n")
	if !strings.Contains(line, "decode admission 47.8 ms (of which 18.7 ms noticing the finished read) + first decode step") {
		t.Errorf("text parts do not name the read notice inside decode admission:\n%s", line)
	}
	s.TTFTParts.DecodeAdmit.ReadNoticeS = 0
	if line := strings.Join(scenarioLines(&s, 0), "\n"); strings.Contains(line, "of which") {
		t.Errorf("a zero read notice printed:\n%s", line)
	}
}
