package perf

import "fmt"

// TermBinding is what binds one term of a step (StepTime.Bindings): the
// resource the computation that priced the term found limiting. Issue
// #28 item 5 (qa44c F12): the per-class terms carried no binding of their
// own, only the step and the SLO did. A byte, not a string: the
// simulations price millions of steps and copy StepTime.
type TermBinding uint8

// Term bindings. The measured-table forms say which side of the table's
// shape the time sits on (gemmSplitCache.timeSplit's floors), so a term
// priced from a measured table is never called a roofline.
const (
	TermNone TermBinding = iota
	TermCompute
	TermHBM
	TermGEMMTableCompute
	TermGEMMTableHBM
	TermMoETableCompute
	TermMoEStreamHBM
	TermAttnKernelFloor
	TermNetworkNICs
	TermNetworkNVLink
	TermLaunch
	TermHost
)

// String is the binding as the reports print it.
func (b TermBinding) String() string {
	switch b {
	case TermCompute:
		return "compute (roofline)"
	case TermHBM:
		return "HBM (roofline)"
	case TermGEMMTableCompute:
		return "measured GEMM table (compute-bound at this shape)"
	case TermGEMMTableHBM:
		return "measured GEMM table (HBM-bound at this shape)"
	case TermMoETableCompute:
		return "measured fused-MoE table (compute-bound at this shape)"
	case TermMoEStreamHBM:
		return "HBM (measured fused-MoE streaming rate)"
	case TermAttnKernelFloor:
		return "launch (measured attention kernel floor)"
	case TermNetworkNICs:
		return "network (NICs)"
	case TermNetworkNVLink:
		return "network (NVLink)"
	case TermLaunch:
		return "launch (kernel gaps)"
	case TermHost:
		return "host"
	}
	return ""
}

// MarshalText writes the binding by name in JSON ("" for none).
func (b TermBinding) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText reads a binding back by the name MarshalText writes, so a
// report's JSON round-trips (cmd/vlaunch's agreement test reads check's
// JSON back into the report types); an unknown name is an error.
func (b *TermBinding) UnmarshalText(text []byte) error {
	for c := TermNone; c <= TermHost; c++ {
		if c.String() == string(text) {
			*b = c
			return nil
		}
	}
	return fmt.Errorf("unknown step-term binding %q", text)
}

// TermBindings is each term's binding: the GPU classes (dense projections,
// routed experts, attention core), the kernel gaps, the communication and
// the host's time between steps.
type TermBindings struct {
	Dense      TermBinding `json:"dense"`
	Experts    TermBinding `json:"experts,omitempty"`
	Attention  TermBinding `json:"attention"`
	KernelGaps TermBinding `json:"kernel_gaps"`
	Network    TermBinding `json:"network,omitempty"`
	Host       TermBinding `json:"host"`
}

// rooflineBinding is the side a roofline term's max(compute, memory) took.
func rooflineBinding(computeS, memoryS float64) TermBinding {
	if computeS >= memoryS {
		return TermCompute
	}
	return TermHBM
}

// gemmTableBinding is the dense term's binding when the measured GEMM
// table priced it: the activation passes at the HBM rate when they
// outlast the GEMMs (the term is their time), else the side of the
// table's time each shape's floors assigned (compute-bound tc,
// memory-bound tm).
func gemmTableBinding(tc, tm, actS float64) TermBinding {
	switch {
	case actS > tc+tm:
		return TermHBM
	case tc >= tm:
		return TermGEMMTableCompute
	}
	return TermGEMMTableHBM
}

// expertBinding is the routed experts' binding from expertTimeCall's
// two sides and where each came from (the measured MoE curve for the
// compute side, the measured streaming rate for the memory side).
func expertBinding(computeS, memoryS float64, curve, stream bool) TermBinding {
	if computeS >= memoryS {
		if curve {
			return TermMoETableCompute
		}
		return TermCompute
	}
	if stream {
		return TermMoEStreamHBM
	}
	return TermHBM
}

// networkBinding is the communication terms' link: the NICs when the
// step sends bytes through a node's NICs, else NVLink; none without
// communication.
func (t StepTime) networkBinding() TermBinding {
	switch {
	case t.A2AS+t.TPS+t.PPS+t.DCPS <= 0:
		return TermNone
	case t.InterBytesPerNode > 0 || t.PPInterBytesPerNode > 0:
		return TermNetworkNICs
	}
	return TermNetworkNVLink
}
