package report

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// stepTermRow is one term of the decode step as the markdown and HTML
// tables print it: its name, its time and what binds it
// (perf.StepTime.Bindings, from the computation that priced it).
type stepTermRow struct {
	name    string
	s       float64
	binding string
}

// stepTermRows lists the decode step's terms with their bindings (issue
// #28 item 5, qa44c F12). A term's name says what it is, not how it was
// priced (qa44c F11: the dense row read "roofline" while the model note
// said the measured GEMM table priced it); the binding column says that.
// html says the HTML's longer names.
func stepTermRows(st perf.StepTime, pp int, html bool) []stepTermRow {
	b := st.Bindings
	dense, between, exposed := "GPU: dense", "host: between steps", "network: exposed"+allParen(pp)
	if html {
		dense, between, exposed = "GPU: dense projections", "host: work between steps", "network: exposed (not hidden by compute"+allCell(pp)+")"
	}
	rows := []stepTermRow{
		{dense + stageParen(pp), st.DenseS, b.Dense.String()},
		{"GPU: routed experts" + stageParen(pp), st.ExpertS, b.Experts.String()},
		{"GPU: attention" + stageParen(pp), st.AttentionS, b.Attention.String()},
		{fmt.Sprintf("GPU: kernel gaps (%.0f kernels%s)", st.Kernels, allCell(pp)), st.KernelGapsS, b.KernelGaps.String()},
		{"network: all-to-all" + stageParen(pp), st.A2AS, b.Network.String()},
		{"network: TP all-reduce" + stageParen(pp), st.TPS, b.Network.String()},
		{"network: PP hand-off", st.PPS, b.Network.String()},
		{exposed, st.ExposedNetworkS, b.Network.String()},
		{between, st.HostS, b.Host.String()},
		{"host: kernel launches (overlap the GPU)", st.LaunchS, b.Host.String()},
		{"host: on the critical path", st.OverheadS, b.Host.String()},
	}
	for i := range rows {
		if rows[i].s <= 0 {
			rows[i].binding = "" // a term that takes no time binds nothing
		}
	}
	return rows
}
