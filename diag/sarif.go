package diag

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf16"
)

// RuleInfo describes a rule for SARIF's tool.driver.rules.
type RuleInfo struct {
	Code    string
	Summary string
	HelpURI string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool sarifTool `json:"tool"`
	// ColumnKind is said rather than left to the default: the columns
	// written are UTF-16 code units (sarifColumn), SARIF's default, which
	// GitHub code scanning reads.
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
	HelpURI          string       `json:"helpUri,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// printSARIF writes a SARIF 2.1.0 log (diag/testdata/sarif holds the
// official schema its tests validate against). src turns byte columns into
// SARIF's UTF-16 columns where a line holds non-ASCII text.
func printSARIF(w io.Writer, ds Diagnostics, src Sources, rules []RuleInfo) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "vlaunch", InformationURI: "https://github.com/vlaunch/vlaunch", Rules: []sarifRule{}}},
		ColumnKind: "utf16CodeUnits", Results: []sarifResult{}}
	for _, r := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: r.Code, ShortDescription: sarifMessage{r.Summary}, HelpURI: r.HelpURI})
	}
	for _, d := range ds {
		res := sarifResult{RuleID: string(d.Code), Level: sarifLevel(d.Severity), Message: sarifMessage{d.Message}}
		if d.Hint != "" {
			res.Message.Text += " (hint: " + d.Hint + ")"
		}
		if d.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(d.File)}}}
			if d.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: sarifColumn(src[d.File], d.Line, d.Col)}
			}
			res.Locations = []sarifLocation{loc}
		}
		run.Results = append(run.Results, res)
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifURI turns a file name as the user gave it into the URI reference
// SARIF's artifactLocation.uri must be: a relative path stays relative (code
// scanning resolves it against the repository root) with its separators as
// slashes and the characters a URI cannot hold (a space, %, #, ?)
// percent-encoded; an absolute path becomes a file: URI.
func sarifURI(file string) string {
	p := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: file:///C:/...
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	// A relative path's first segment holding a colon would read as a
	// scheme; url.URL.String prefixes "./" then.
	return (&url.URL{Path: p}).String()
}

// sarifColumn converts a 1-based byte column on line of content into the
// 1-based UTF-16 column SARIF counts in. Without the source (or for a
// position past the line) the byte column is kept: identical for ASCII.
func sarifColumn(content []byte, line, col int) int {
	if col <= 1 || content == nil {
		return col
	}
	lines := strings.SplitN(string(content), "\n", line+1)
	if line > len(lines) {
		return col
	}
	text := lines[line-1]
	if col-1 > len(text) {
		return col
	}
	units := 0
	for _, r := range text[:col-1] {
		units += utf16.RuneLen(r) // an invalid byte reads as U+FFFD: one unit
	}
	return units + 1
}
