package preflight

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
)

// hidingFS is a host filesystem on which some files cannot be read, as a
// container or sandbox hides /proc/modules (qa44c F13: such a host gave
// "FAIL rdma.gdrcopy cannot read /proc/modules" and exit 1).
type hidingFS struct {
	fs.FS
	hidden map[string]bool
}

func (h hidingFS) Open(name string) (fs.File, error) {
	if h.hidden[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return h.FS.Open(name)
}

// TestUnreadableSourceIsUnchecked: a check whose source the host hides
// reports "could not check", not a fail; the run does not fail on it, and
// the text and JSON say so.
func TestUnreadableSourceIsUnchecked(t *testing.T) {
	h := fixtureHost(t, "h20-roce")
	h.FS = hidingFS{h.FS, map[string]bool{"proc/modules": true, "proc/meminfo": true}}
	rep, err := Run(context.Background(), Options{Deployment: resolved(t, loadSpec(t, "h20-roce")), Node: "node0", Host: h,
		Only: []string{"rdma.gdrcopy", "host.memory"}})
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, resultOf(t, rep, "rdma.gdrcopy"), Unchecked, "could not check", "/proc/modules", "lsmod")
	wantResult(t, resultOf(t, rep, "host.memory"), Unchecked, "could not check", "/proc/meminfo")
	if rep.Failed() {
		t.Errorf("Failed() with only unchecked results: want no failure (exit 0)")
	}
	var text bytes.Buffer
	if err := WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"UNCHECKED  rdma.gdrcopy", "0 failed", "2 could not be checked"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, rep, rep.Findings()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Results []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"results"`
		Summary     map[string]int `json:"summary"`
		Diagnostics []struct {
			Severity string `json:"severity"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Summary["unchecked"] != 2 || got.Summary["fail"] != 0 {
		t.Errorf("JSON summary %v: want 2 unchecked, 0 failed", got.Summary)
	}
	for _, r := range got.Results {
		if r.Status != "unchecked" {
			t.Errorf("JSON %s: status %q, want unchecked", r.ID, r.Status)
		}
	}
	for _, d := range got.Diagnostics {
		if d.Severity == "error" {
			t.Errorf("JSON diagnostics: an unchecked result is an error: %s", js.String())
		}
	}
}
