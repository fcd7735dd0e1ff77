package memory

import (
	"testing"
)

// TestMLABlockSizeMatchesLogs: where a log states the block size of an MLA
// model on a known GPU and release, the block size vlaunch resolves (the
// attention backend's, vllm.Release.MLABackend) is the logged one. The
// calibration tables take the logged block size as an input, so this is
// where the rule is checked: vLLM 0.19.0 on an H100 runs FLASH_ATTN_MLA,
// which keeps block size 16 (FlashMLA would force 64).
func TestMLABlockSizeMatchesLogs(t *testing.T) {
	cases, _ := loadCalibration(t)
	n := 0
	for _, c := range cases {
		bs, ok := num(c.Measured.BlockSize)
		if !ok || !exactVersionRE.MatchString(c.Version) {
			continue
		}
		in, _, err := calInput(c)
		if err != nil || in.GPU == nil || !in.Model.IsMLA() {
			continue
		}
		n++
		if in.BlockSize != int(bs) {
			t.Errorf("%s (vLLM %s, %s): block size %d, logged %d", c.ID, c.Version, in.GPU.Name, in.BlockSize, int(bs))
		}
	}
	if n == 0 {
		t.Fatal("no MLA case with a logged block size and release")
	}
}
