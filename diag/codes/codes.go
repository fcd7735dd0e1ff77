// Package codes is the catalog of every diagnostic code vlaunch reports:
// SPECxxx (reading and validating a spec), ESTxxx (the estimator behind
// `check`), GENxxx (the bundle generator), VLxxx (lint), PFxxx (preflight
// checks) and LOGxxx (`vlaunch logs`). Each code has a stable name, a
// default severity, a one-line summary and a markdown page (docs/CODE.md, embedded) saying what
// it means, why it matters and how to fix it.
//
// The package is data only: static tables, no registration at init time.
// Packages report with the typed constants declared here, so a code cannot
// be used without an entry; a test fails when an entry is never used.
package codes

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// Entry documents one code.
type Entry struct {
	Code diag.Code
	// Name is a short slug, unique across the catalog ("unknown-key",
	// "gpu.count"); `vlaunch explain` accepts it as well as the code.
	Name string
	// Severity is the code's usual severity. Some codes report at a lower
	// one when the cause is milder (the page says when).
	Severity diag.Severity
	// Summary is one line, capitalised, without a trailing period.
	Summary string
}

// Family is one code prefix with its title, in the order pages list them.
type Family struct {
	Prefix, Title string
	entries       []Entry
}

// Entries returns the family's codes in code order.
func (f Family) Entries() []Entry { return append([]Entry(nil), f.entries...) }

// families is the whole catalog.
var families = []Family{
	{"SPEC", "Spec reading and validation (`vlaunch validate`, and every command that reads a spec)", specEntries},
	{"EST", "Feasibility estimate (`vlaunch check`)", estimateEntries},
	{"GEN", "Bundle generation (`vlaunch generate`)", generatorEntries},
	{"VL", "Lint rules (`vlaunch lint`)", lintEntries},
	{"PF", "Host pre-flight checks (`vlaunch preflight`)", preflightEntries},
	{"LOG", "Start-up log findings (`vlaunch logs`)", logEntries},
}

// retired are codes vlaunch no longer reports, with what reports their
// cause now. They keep their entries, so that old output can still be
// explained and their numbers are never given to another meaning.
var retired = map[diag.Code]string{
	EstUnknownGPU:    "validate reports an unknown GPU once, with its position: SPEC106",
	EstBadLayout:     "validate reports a layout that is not positive or does not use the GPUs: SPEC005, SPEC102",
	EstBadDType:      "validate reports an unknown or unusable dtype: SPEC005 (and the estimator's EST001)",
	EstBadSetting:    "validate reports an engine setting out of range: SPEC005",
	EstVersionApprox: "validate reports a version outside vlaunch's table: SPEC117",
	GenUnsafeValue:   "validate reports unsafe names and values once, with their positions: SPEC111-SPEC114",
	GenVersion:       "validate reports an unparsable or unknown version: SPEC117",
	GenNoInterface:   "validate reports a multi-node spec without a socket interface: SPEC115",
	SpecPDNotModel:   "every command that reads a spec models a disaggregated one (calibrate, the last to refuse it, replays and fits through check's P/D model since December 2026)",
}

// Retired returns what reports the code's cause now, or "" for a code in use.
func (e Entry) Retired() string { return retired[e.Code] }

// Families returns the catalog grouped by prefix.
func Families() []Family { return append([]Family(nil), families...) }

// All returns every entry, family by family, in code order.
func All() []Entry {
	var out []Entry
	for _, f := range families {
		out = append(out, f.entries...)
	}
	return out
}

// byKey indexes codes and names (upper-cased) for Lookup.
var byKey = index()

func index() map[string]Entry {
	m := map[string]Entry{}
	for _, e := range All() {
		m[string(e.Code)] = e
		m[strings.ToUpper(e.Name)] = e
	}
	return m
}

// Lookup finds an entry by code or by name, ignoring case.
func Lookup(codeOrName string) (Entry, bool) {
	e, ok := byKey[strings.ToUpper(strings.TrimSpace(codeOrName))]
	return e, ok
}

// Severity returns a code's default severity (Error for a code the catalog
// lacks, which the catalog test rules out).
func Severity(c diag.Code) diag.Severity {
	if e, ok := byKey[string(c)]; ok {
		return e.Severity
	}
	return diag.Error
}
