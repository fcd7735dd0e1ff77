package published

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// Schema is the value of the data file's schema key this package reads.
const Schema = "vlaunch/calibration-throughput/v1"

// MaxBytes bounds what Parse accepts; the data file is far smaller.
const MaxBytes = 8 << 20

// Parse decodes a throughput data file strictly: unknown keys, a second
// YAML document and numbers written as anything but a number or "unknown"
// are errors. It does not validate the rows (see Set.Validate).
func Parse(data []byte) (*Set, error) {
	var s Set
	if err := decodeStrict(data, "calibration data", &s); err != nil {
		return nil, err
	}
	for i := range s.Rows {
		if src, ok := s.Source(s.Rows[i].Source); ok {
			s.Rows[i].SourceDate = src.Date
		}
	}
	return &s, nil
}

// decodeStrict decodes one YAML document of at most MaxBytes into out,
// rejecting unknown keys and a second document; what names the data in
// errors.
func decodeStrict(data []byte, what string, out any) error {
	if len(data) > MaxBytes {
		return fmt.Errorf("%s is %d bytes, more than the %d accepted", what, len(data), MaxBytes)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(out); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s is empty", what)
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: more than one YAML document", what)
	}
	return nil
}

// Source returns the source with the given id.
func (s *Set) Source(id string) (Source, bool) {
	for _, src := range s.Sources {
		if src.ID == id {
			return src, true
		}
	}
	return Source{}, false
}

// Split returns the rows of one split (SplitCalibration or SplitHoldout).
func (s *Set) Split(split string) []Row {
	var out []Row
	for _, r := range s.Rows {
		if r.Split == split {
			out = append(out, r)
		}
	}
	return out
}

// Targetable reports whether the row has what a reproduction needs (the
// data file marks the others incomplete).
func (r Row) Targetable() bool { return r.Incomplete == "" }
