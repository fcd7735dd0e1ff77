package diag

import (
	"encoding/json"
	"io"
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
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
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

func printSARIF(w io.Writer, ds Diagnostics, rules []RuleInfo) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "vlaunch", InformationURI: "https://github.com/vlaunch/vlaunch", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	for _, r := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: r.Code, ShortDescription: sarifMessage{r.Summary}, HelpURI: r.HelpURI})
	}
	for _, d := range ds {
		res := sarifResult{RuleID: string(d.Code), Level: sarifLevel(d.Severity), Message: sarifMessage{d.Message}}
		if d.Hint != "" {
			res.Message.Text += " (hint: " + d.Hint + ")"
		}
		if d.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: d.File}}}
			if d.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: d.Col}
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
