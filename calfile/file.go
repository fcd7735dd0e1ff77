package calfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/internal/inputfile"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"gopkg.in/yaml.v3"
)

// Schema is the version of the calibration file this vlaunch writes and
// reads. Constants may be added within a version (a file names only the
// constants it sets; the others keep their global values); renaming or
// changing the meaning of one needs a new version.
const Schema = "vlaunch/calibration/v1"

// MaxBytes bounds a calibration file (a real one is a few KiB).
const MaxBytes = 1 << 20

// File is a calibration file: the fitted constants of one cluster, where
// they came from, and the fit that produced them.
type File struct {
	Schema string `yaml:"schema"`
	// Constants maps a constant's name (see Constants) to its value.
	Constants  map[string]float64 `yaml:"constants"`
	Provenance Provenance         `yaml:"provenance"`
	Fit        *FitRecord         `yaml:"fit,omitempty"`
}

// Provenance says which results, when, and for which spec.
type Provenance struct {
	// Created is the time of the fit (RFC 3339, UTC).
	Created string `yaml:"created"`
	// Vlaunch is the version of vlaunch that wrote the file.
	Vlaunch string `yaml:"vlaunch,omitempty"`
	// Spec is the spec the results were predicted with, SpecSHA256 its
	// content's digest, Deployment a one-line summary of it.
	Spec       string `yaml:"spec"`
	SpecSHA256 string `yaml:"spec_sha256,omitempty"`
	Deployment string `yaml:"deployment,omitempty"`
	// Results are the benchmark results fitted.
	Results []ResultRef `yaml:"results"`
}

// ResultRef identifies one benchmark result.
type ResultRef struct {
	File   string `yaml:"file"`
	SHA256 string `yaml:"sha256,omitempty"`
	Record int    `yaml:"record,omitempty"`
	Format string `yaml:"format,omitempty"`
	Load   string `yaml:"load,omitempty"`
	Shape  string `yaml:"shape,omitempty"`
}

// FitRecord is the fit's own account, kept for whoever reads the file.
type FitRecord struct {
	Criterion string `yaml:"criterion"`
	// Worst errors over the fitted targets, in percent (|predicted /
	// measured − 1| of the worst log error).
	WorstErrorBeforePct float64          `yaml:"worst_error_before_pct"`
	WorstErrorAfterPct  float64          `yaml:"worst_error_after_pct"`
	Constants           []ConstantRecord `yaml:"constants"`
	Targets             []TargetRecord   `yaml:"targets"`
}

// ConstantRecord is one constant before and after the fit.
type ConstantRecord struct {
	Name   string  `yaml:"name"`
	Before float64 `yaml:"before"`
	After  float64 `yaml:"after"`
	Fitted bool    `yaml:"fitted"`
	Note   string  `yaml:"note,omitempty"`
}

// TargetRecord is one measured value and its predictions.
type TargetRecord struct {
	ID       string  `yaml:"id"`
	Measured float64 `yaml:"measured"`
	Before   float64 `yaml:"before"`
	After    float64 `yaml:"after"`
	Fitted   bool    `yaml:"fitted"`
	Note     string  `yaml:"note,omitempty"`
}

// Parse decodes a calibration file strictly: unknown keys, another schema,
// unknown constant names and values outside a constant's bounds are errors
// (a misspelt constant must not silently leave the global value in place).
func Parse(data []byte) (*File, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%s, more than the %s a calibration file may have", inputfile.Size(int64(len(data))), inputfile.Size(MaxBytes))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f File
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty calibration file")
		}
		return nil, decodeError(data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one YAML document")
	}
	return &f, f.Validate()
}

// Validate checks the schema and every constant.
func (f *File) Validate() error {
	if f.Schema != Schema {
		return fmt.Errorf("schema %q: this vlaunch reads %q (write the file again with `vlaunch calibrate`)", f.Schema, Schema)
	}
	if len(f.Constants) == 0 {
		return errors.New("no constants")
	}
	for _, name := range f.Names() {
		c, ok := Lookup(name)
		v := f.Constants[name]
		switch {
		case !ok:
			return fmt.Errorf("unknown constant %q (known: %s)", name, strings.Join(names(), ", "))
		case math.IsNaN(v) || v < c.Lower || v > c.Upper:
			return fmt.Errorf("constant %s = %g is outside its range [%g, %g]", name, v, c.Lower, c.Upper)
		}
	}
	return nil
}

// Names lists the constants the file sets, sorted.
func (f *File) Names() []string {
	out := make([]string, 0, len(f.Constants))
	for k := range f.Constants {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Marshal renders the file with a header comment saying what it is.
func (f *File) Marshal() ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

const header = `# vlaunch calibration file: efficiency constants of vlaunch's performance model
# fitted to benchmark results of one cluster by ` + "`vlaunch calibrate`" + `.
# Use it with ` + "`vlaunch check|plan|generate --calibration FILE`" + ` or ` + "`calibration: FILE`" + ` in
# the spec. Constants not listed keep their global values. The provenance and fit
# sections say where the values came from; only schema and constants are used.
`

func names() []string {
	out := make([]string, len(Constants))
	for i, c := range Constants {
		out[i] = c.Name
	}
	return out
}

// Load reads and parses the calibration file at path (a regular file of
// at most MaxBytes).
func Load(path string) (*File, error) {
	data, err := inputfile.Read(path, MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("calibration file %s: %w", path, err)
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("calibration file %s: %w", path, err)
	}
	return f, nil
}

// Summary describes the fit for reports: when, and from how many results.
func (f *File) Summary() string {
	n := len(f.Provenance.Results)
	day := f.Provenance.Created
	if len(day) >= 10 {
		day = day[:10]
	}
	switch {
	case n == 0 && day == "":
		return "set by hand"
	case day == "":
		return fmt.Sprintf("fitted to %d benchmark result%s", n, textfmt.PluralS(n))
	}
	return fmt.Sprintf("fitted %s to %d benchmark result%s", day, n, textfmt.PluralS(n))
}

// decodeError words a strict decode's failure for a user (qa45c F9: a
// deployment spec given to --calibration printed one "field apiVersion not
// found in type calfile.File" line per key): another vlaunch document is
// named as such, and unknown keys are listed as keys, not Go types.
func decodeError(data []byte, err error) error {
	var head struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
	}
	if yaml.Unmarshal(data, &head) == nil && head.APIVersion != "" {
		what := "a Kubernetes or other manifest"
		if strings.HasPrefix(head.APIVersion, "vlaunch/") {
			what = "a deployment spec"
		}
		return fmt.Errorf("this is %s (apiVersion %s, kind %s), not a calibration file: give the file `vlaunch calibrate` writes (schema: %s)",
			what, head.APIVersion, orNone(head.Kind), Schema)
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("not a calibration file: %w", err)
	}
	msgs := make([]string, 0, len(te.Errors))
	for _, e := range te.Errors {
		if m := unknownField.FindStringSubmatch(e); m != nil {
			e = m[1] + "unknown key " + m[2]
		}
		msgs = append(msgs, e)
	}
	return fmt.Errorf("not a calibration file (it has schema, constants, provenance and fit): %s", strings.Join(msgs, "; "))
}

// unknownField matches yaml.v3's message for a key KnownFields refuses.
var unknownField = regexp.MustCompile(`^(line \d+: )field (\S+) not found in type \S+$`)

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
