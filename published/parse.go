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
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("calibration data is %d bytes, more than the %d accepted", len(data), MaxBytes)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Set
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("calibration data is empty")
		}
		return nil, fmt.Errorf("calibration data: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("calibration data: more than one YAML document")
	}
	return &s, nil
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
