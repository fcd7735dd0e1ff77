package pd

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// heteroPool is gpt-oss-120b on H100 at TP tp under vLLM version.
func heteroPool(t *testing.T, tp int, version string) *input.Input {
	t.Helper()
	return testinput.Quick(t, resolve.QuickOptions{Model: "gpt-oss-120b", GPU: "h100-sxm", TP: tp, PP: 1, DP: 1,
		KVCacheDType: "auto", Weights: "auto", Concurrency: 1, VLLMVersion: version})
}

// vLLM 0.11.0 reads a TP 2 prefill into TP 4 decode as it reads TP 4 into
// TP 4: each decode rank pulls its heads' slice of every block from one
// prefill rank, one descriptor per region and block, the same count and
// the same posting; only two GPUs send the bytes, which bounds the link
// inside the node.
func TestTransferHeteroTPSameWork(t *testing.T) {
	p2, p4, d4 := heteroPool(t, 2, "0.11.0"), heteroPool(t, 4, "0.11.0"), heteroPool(t, 4, "0.11.0")
	hetero := newTransfer(p2, d4, 5000, true, 1, 1)
	homo := newTransfer(p4, d4, 5000, true, 1, 1)
	blocks := hetero.Tokens / d4.BlockSize
	if hetero.Descriptors == 0 || hetero.Descriptors != homo.Descriptors || hetero.Descriptors%blocks != 0 {
		t.Fatalf("descriptors: P TP2 %d, P TP4 %d; want equal, regions × %d blocks", hetero.Descriptors, homo.Descriptors, blocks)
	}
	if hetero.PostS != homo.PostS || hetero.PerDecodeRankBytes != homo.PerDecodeRankBytes || hetero.WireBytes != homo.WireBytes {
		t.Errorf("posting %.4f / %.4f s, per decode rank %.0f / %.0f B, wire %.0f / %.0f B: want equal",
			hetero.PostS, homo.PostS, hetero.PerDecodeRankBytes, homo.PerDecodeRankBytes, hetero.WireBytes, homo.WireBytes)
	}
	if 2*hetero.LinkGBytesPerS != homo.LinkGBytesPerS || hetero.PerPrefillRankBytes != 2*homo.PerPrefillRankBytes {
		t.Errorf("link %.0f / %.0f GB/s, per prefill rank %.0f / %.0f B: want two senders against four",
			hetero.LinkGBytesPerS, homo.LinkGBytesPerS, hetero.PerPrefillRankBytes, homo.PerPrefillRankBytes)
	}
}

// Between nodes the prefill ranks' NICs bound a hand-off to a larger
// decode TP (UseSenderNICs): TP 1 into TP 4 on nodes with a NIC per GPU
// moves at one NIC, not four; equal TPs do not change.
func TestTransferSenderNICs(t *testing.T) {
	p1, d4 := heteroPool(t, 1, "0.11.0"), heteroPool(t, 4, "0.11.0")
	node, nics, _ := interNode(d4)
	per := node / float64(nics)
	tr := newTransfer(p1, d4, 5000, false, 1, 1)
	if math.Abs(tr.LinkGBytesPerS-per) > 1e-9 {
		t.Errorf("P TP1 -> D TP4: %.2f GB/s, want one NIC's %.2f", tr.LinkGBytesPerS, per)
	}
	if !strings.Contains(strings.Join(tr.Why, "; "), "tp_rank ÷ 4") {
		t.Errorf("why does not say the prefill rank sends: %q", tr.Why)
	}
	if want := tr.LatencyS + tr.PostS + tr.WireBytes/(per*1e9); math.Abs(tr.AloneS-want) > 1e-12 {
		t.Errorf("alone %.6f s, want %.6f", tr.AloneS, want)
	}
	UseSenderNICs = false
	off := newTransfer(p1, d4, 5000, false, 1, 1)
	UseSenderNICs = true
	if math.Abs(off.LinkGBytesPerS-4*per) > 1e-9 {
		t.Errorf("decode NICs alone: %.2f GB/s, want four NICs' %.2f", off.LinkGBytesPerS, 4*per)
	}
	homo := newTransfer(d4, d4, 5000, false, 1, 1)
	if math.Abs(homo.LinkGBytesPerS-4*per) > 1e-9 {
		t.Errorf("TP4 -> TP4: %.2f GB/s, want %.2f", homo.LinkGBytesPerS, 4*per)
	}
}

// From 0.11.1 a prefill block smaller than the decode's is read prefill
// block by prefill block: four times the descriptors of 16-token blocks
// into 64-token ones; 0.11.0 (which refuses the pairing) counts decode
// blocks.
func TestTransferDescriptorsPrefillBlock(t *testing.T) {
	for _, c := range []struct {
		version string
		ratio   int
	}{{"0.11.1", 4}, {"0.11.0", 1}} {
		pre, dec := heteroPool(t, 4, c.version), heteroPool(t, 4, c.version)
		pre.BlockSize, dec.BlockSize = 16, 64
		same := newTransfer(dec, dec, 5000, true, 1, 1)
		tr := newTransfer(pre, dec, 5000, true, 1, 1)
		if same.Descriptors == 0 || tr.Descriptors != c.ratio*same.Descriptors {
			t.Errorf("vLLM %s: %d descriptors, want %d × %d", c.version, tr.Descriptors, c.ratio, same.Descriptors)
		}
	}
}
