// Package preflight checks one host before a deployment starts: GPUs,
// network identity, ports, RDMA/DeepEP prerequisites, host resources, model
// files and software. It is read-only: it changes nothing on the host and
// sends no traffic to other hosts. Every system access goes through the
// small interfaces in Host, so the checks run against fixture trees in tests.
package preflight

import (
	"encoding/json"
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
)

// Status is the outcome of one check.
type Status int

// Statuses, ordered so that a larger value is worse (skip is neutral).
// Unchecked is appended after Fail to keep the earlier values stable; it
// is not worse than a fail: a check that could not read what it needs
// (a container or sandbox hides /proc/modules) found nothing wrong and
// nothing right, so it neither passes nor fails the run (Failed).
const (
	Skip Status = iota + 1
	Pass
	Warn
	Fail
	Unchecked
)

// String returns the lower-case name used in every output format.
func (s Status) String() string {
	switch s {
	case Skip:
		return "skip"
	case Pass:
		return "pass"
	case Warn:
		return "warn"
	case Fail:
		return "fail"
	case Unchecked:
		return "unchecked"
	}
	return "invalid"
}

// MarshalText lets encoders print the status by name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status name back (used by JSON consumers and tests).
func (s *Status) UnmarshalText(b []byte) error {
	for _, v := range []Status{Skip, Pass, Warn, Fail, Unchecked} {
		if v.String() == string(b) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", b)
}

// Result is what one check found.
type Result struct {
	// ID is the stable check id, e.g. "gpu.count"; Code its diagnostic
	// code (PF101) and Path the spec field it compared the host with.
	ID   string    `json:"id"`
	Code diag.Code `json:"code"`
	Path string    `json:"path,omitempty"`
	// Pool names the P/D pool a pool check looked at ("prefill",
	// "decode"; "" for a host-wide check or a colocated spec): on a node
	// both pools share, such a check has one result per pool.
	Pool   string `json:"pool,omitempty"`
	Status Status `json:"status"`
	// Found describes what is on the host (for a skip: why it was skipped);
	// Expected is what the spec needs.
	Found    string `json:"found,omitempty"`
	Expected string `json:"expected,omitempty"`
	// Fix says how to repair a warn or fail.
	Fix string `json:"fix,omitempty"`
}

// Report is the outcome of one preflight run on one node.
type Report struct {
	Node    string   `json:"node"`
	Results []Result `json:"results"`
}

// Failed reports whether any check failed (exit code 1). A check that
// could not run (Unchecked) is not a failure: the summary counts it.
func (r Report) Failed() bool { return r.Count(Fail) > 0 }

// Count returns how many results have status s.
func (r Report) Count(s Status) int {
	n := 0
	for _, res := range r.Results {
		if res.Status == s {
			n++
		}
	}
	return n
}

// Summary returns "N passed, N warnings, N failed, N skipped" ("1 warning"),
// then ", N could not be checked" when a check could not read what it
// needs (Unchecked).
func (r Report) Summary() string {
	s := fmt.Sprintf("%d passed, %s, %d failed, %d skipped",
		r.Count(Pass), plural(r.Count(Warn), "warning", "warnings"), r.Count(Fail), r.Count(Skip))
	if n := r.Count(Unchecked); n > 0 {
		s += fmt.Sprintf(", %d could not be checked (not counted as failed)", n)
	}
	return s
}

// Get returns the result with the given id and whether it ran.
func (r Report) Get(id string) (Result, bool) {
	for _, res := range r.Results {
		if res.ID == id {
			return res, true
		}
	}
	return Result{}, false
}

// reportJSON is the JSON form of a report. Diagnostics is a pointer so that
// WriteJSON can print an empty list while a bare Report omits it.
type reportJSON struct {
	Node        string            `json:"node"`
	Results     []Result          `json:"results"`
	Summary     map[string]int    `json:"summary"`
	Diagnostics *diag.Diagnostics `json:"diagnostics,omitempty"`
}

func (r Report) jsonValue() reportJSON {
	return reportJSON{Node: r.Node, Results: r.Results, Summary: map[string]int{
		"pass": r.Count(Pass), "warn": r.Count(Warn), "fail": r.Count(Fail), "skip": r.Count(Skip),
		"unchecked": r.Count(Unchecked),
	}}
}

// MarshalJSON adds the summary counts next to the results.
func (r Report) MarshalJSON() ([]byte, error) { return json.Marshal(r.jsonValue()) }

// pass, warn, fail and skip build results; checks fill ID-less results and
// the runner stamps the id, so a check cannot report under another's id.
func pass(found, expected string) Result {
	return Result{Status: Pass, Found: found, Expected: expected}
}

func warn(found, expected, fix string) Result {
	return Result{Status: Warn, Found: found, Expected: expected, Fix: fix}
}

func fail(found, expected, fix string) Result {
	return Result{Status: Fail, Found: found, Expected: expected, Fix: fix}
}

func skip(reason string) Result { return Result{Status: Skip, Found: reason} }

// unchecked is a check that could not read what it needs (found says what
// and why); fix says how to check it by hand. It is not a fail: the host
// may well be right, preflight cannot see it from here.
func unchecked(found, expected, fix string) Result {
	return Result{Status: Unchecked, Found: "could not check: " + found, Expected: expected, Fix: fix}
}
