package replay

import (
	"flag"
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// gemmTables turns perf.UseGEMMTables on for a trial replay (issue #28:
// dense GEMMs priced per shape from the measured tables, no refit). The
// goldens hold the switch off: with -gemmtables the golden checks report
// differences, which is the trial's output, never an -update.
var gemmTables = flag.Bool("gemmtables", false, "price dense GEMMs from the measured per-shape tables (perf.UseGEMMTables; trial, do not -update)")

func TestMain(m *testing.M) {
	flag.Parse()
	perf.UseGEMMTables = *gemmTables
	os.Exit(m.Run())
}
